import Foundation
import Glibc

/// A Unix stream socket that accepts one connection, waits for the client's request and closes without reading
/// it. The kernel then resets the connection: the client's read fails with `ECONNRESET` (a write after the close
/// with `EPIPE`). That is what a client of a socket-activated service sees when the service fails to start and
/// systemd closes the listening socket with the client's connection still queued.
package final class ResettingListener: Sendable {
    /// The socket's path.
    package let path: String
    private let descriptor: Int32

    /// Binds and listens at `path`.
    package init(path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError(description: "socket: errno \(errno)") }
        var address = UnixAddress(path: path)
        let bound = address.withSockaddr { bind(descriptor, $0, $1) }
        guard bound == 0, listen(descriptor, 4) == 0 else {
            let code = errno
            close(descriptor)
            throw TestSupportError(description: "bind or listen \(path): errno \(code)")
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// Accepts one connection, waits up to 20 s for its first bytes, and closes it unread; on a thread of its own.
    package func resetOneConnection() async {
        await offThePool { [descriptor] in
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { return }
            var request = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            _ = poll(&request, 1, 20_000)
            close(connection)
        }
    }
}
