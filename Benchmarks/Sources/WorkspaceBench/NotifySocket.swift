import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A datagram socket in the role of systemd's notify socket: the daemon sends `READY=1` and its status to it.
final class NotifySocket {
    let path: String
    private let descriptor: Int32

    /// Binds a socket at `path`.
    init(path: String) throws {
        self.path = path
        unlink(path)
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let bound = withUnixAddress(path) { bind(descriptor, $0, $1) }
        guard descriptor >= 0, bound == 0 else { throw BenchError("cannot bind the notify socket \(path): \(errno)") }
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// Waits for a datagram with the line `line` (at most `timeout` seconds); whether it came.
    func wait(for line: String, timeout: Double) -> Bool {
        let deadline = Date() + timeout
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            let text = String(decoding: buffer[..<count], as: UTF8.self)
            if text.split(separator: "\n").contains(Substring(line)) { return true }
        }
        return false
    }

    /// Reads and drops every datagram waiting (the daemon's status lines).
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
    }
}

/// A benchmark that cannot go on, and why.
struct BenchError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
