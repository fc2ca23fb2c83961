import Glibc
import NIOCore

/// The server reset or refused the connection before any response arrived (`ECONNRESET`, `EPIPE`,
/// `ECONNREFUSED`): nothing answered, so the server is unreachable, not broken. A socket-activated service that
/// fails to start does this: systemd accepts connections into the listening socket's queue, and closing that
/// socket resets every connection still queued, after the client's `connect()` succeeded.
struct ConnectionLost: Error {
    /// The `errno` the connection ended with.
    let errno: Int32

    /// The `errno` values that mean the server went away before it answered.
    static let errnos: Set<Int32> = [ECONNRESET, EPIPE, ECONNREFUSED]

    /// `error` as a lost connection when it is an I/O error with one of ``errnos``; `nil` for any other error.
    init?(_ error: any Error) {
        guard let failure = error as? IOError, Self.errnos.contains(failure.errnoCode) else { return nil }
        errno = failure.errnoCode
    }

    /// The client's error: unreachable, naming the `errno`.
    func clientError(path: String) -> UnixHTTPClientError {
        .unreachable(path: path, errno: errno, reason: errnoDescription(errno) + " before any response")
    }
}
