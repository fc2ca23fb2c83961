#if canImport(Glibc)
import Glibc
#endif

/// A Unix datagram socket standing in for systemd's notify socket: records each datagram with its sender pid
/// (`SO_PASSCRED`).
package final class NotifyListener {
    /// One datagram and the pid that sent it.
    package struct Datagram: Equatable, Sendable {
        /// The sender (from `SCM_CREDENTIALS`), -1 if unknown.
        package var pid: pid_t
        /// The datagram's text.
        package var text: String
    }

    /// The socket's path, for `NOTIFY_SOCKET`.
    package let path: String
    private let fd: Int32

    /// Binds a datagram socket at `path` with `SO_PASSCRED`.
    package init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError(description: "socket: \(errno)") }
        var one: Int32 = 1
        guard setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw TestSupportError(description: "SO_PASSCRED: \(errno)")
        }
        var address = UnixAddress(path: path)
        guard address.withSockaddr({ bind(fd, $0, $1) }) == 0 else {
            throw TestSupportError(description: "bind \(path): \(errno)")
        }
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// Every datagram queued so far, oldest first, without waiting.
    package func drain() -> [Datagram] {
        var received: [Datagram] = []
        while let datagram = receive() { received.append(datagram) }
        return received
    }

    private func receive() -> Datagram? {
        var data = [UInt8](repeating: 0, count: 4096)
        // struct cmsghdr (16 bytes) followed by struct ucred (12 bytes, padded to 16).
        var control = [UInt8](repeating: 0, count: 64)
        let count = data.withUnsafeMutableBytes { dataBytes in
            control.withUnsafeMutableBytes { controlBytes in
                var vector = iovec(iov_base: dataBytes.baseAddress, iov_len: dataBytes.count)
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var message = msghdr()
                    message.msg_iov = vectorPointer
                    message.msg_iovlen = 1
                    message.msg_control = controlBytes.baseAddress
                    message.msg_controllen = controlBytes.count
                    return recvmsg(fd, &message, Int32(MSG_DONTWAIT))
                }
            }
        }
        guard count >= 0 else { return nil }
        let level = control.withUnsafeBytes { $0.load(fromByteOffset: 8, as: Int32.self) }
        let type = control.withUnsafeBytes { $0.load(fromByteOffset: 12, as: Int32.self) }
        let pid =
            level == SOL_SOCKET && type == 2 /* SCM_CREDENTIALS */
            ? control.withUnsafeBytes { $0.load(fromByteOffset: 16, as: Int32.self) } : -1
        return Datagram(pid: pid, text: String(decoding: data[0..<count], as: UTF8.self))
    }
}

/// A failure of the test support itself (a socket call, a spawn).
package struct TestSupportError: Error, CustomStringConvertible {
    /// What failed.
    package var description: String

    /// An error with the given text.
    package init(description: String) {
        self.description = description
    }
}
