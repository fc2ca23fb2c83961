import Foundation
import Glibc

/// The Unix stream socket calls of the tests that speak raw bytes to a server (a stalled reader, a request cut
/// short, an events stream read by hand).
package enum UnixSocket {
    /// A close-on-exec stream socket connected to `path`, whose reads wait at most `receiveTimeout` seconds for a
    /// byte; the caller closes it.
    ///
    /// - Throws: `POSIXError` with the `connect(2)` error (`ENOENT`, `ECONNREFUSED`, …).
    package static func connect(_ path: String, receiveTimeout seconds: Int) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = UnixAddress(path: path)
        let connected = address.withSockaddr { Glibc.connect(descriptor, $0, $1) }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        return descriptor
    }
}

/// A `sockaddr_un` for a filesystem path.
package struct UnixAddress {
    private var storage = sockaddr_un()

    /// The address of `path` (truncated to fit `sun_path`).
    package init(path: String) {
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { bytes in
            for (index, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
        }
    }

    /// Calls `body` with the address as a `sockaddr` and its length.
    package mutating func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }
}
