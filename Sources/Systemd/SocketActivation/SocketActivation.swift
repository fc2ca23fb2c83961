import CSystemd

#if canImport(Glibc)
import Glibc
#endif

/// Access to the sockets systemd passes to a socket-activated service (`LISTEN_FDS`, `LISTEN_PID`,
/// `LISTEN_FDNAMES`), validated for use as a Unix stream control API.
public enum SocketActivation {
    /// The first inherited descriptor number (`SD_LISTEN_FDS_START`).
    public static let firstFileDescriptor: Int32 = 3

    /// Every descriptor passed by the service manager, with its name, unvalidated.
    ///
    /// Returns an empty array when the process was not socket-activated (no `LISTEN_FDS`, or `LISTEN_PID` names
    /// another process).
    /// - Parameter unsetEnvironment: remove the `LISTEN_*` variables so children do not inherit them. This
    ///   changes the process environment: only while no other thread reads it (`unsetenv` is not thread-safe).
    public static func inheritedFileDescriptors(
        unsetEnvironment: Bool = false
    ) throws(SocketActivationError) -> [InheritedSocket] {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        let count = sd_listen_fds_with_names(unsetEnvironment ? 1 : 0, &names)
        if count < 0 { throw .invalidEnvironment(errno: -count) }
        defer {
            if let names {
                for index in 0..<Int(count) { free(names[index]) }
                free(names)
            }
        }
        return (0..<count).map { index in
            let name = names?[Int(index)].map { String(cString: $0) } ?? "unknown"
            return InheritedSocket(fileDescriptor: firstFileDescriptor + index, name: name)
        }
    }

    /// Every inherited descriptor, each checked to be a listening Unix stream socket.
    ///
    /// - Throws: ``SocketActivationError/notAListeningUnixStreamSocket(fileDescriptor:name:)`` for the first
    ///   descriptor that is something else; ``SocketActivationError/invalidEnvironment(errno:)`` for bad variables.
    public static func listeningUnixSockets(
        unsetEnvironment: Bool = false
    ) throws(SocketActivationError) -> [InheritedSocket] {
        let sockets = try inheritedFileDescriptors(unsetEnvironment: unsetEnvironment)
        for socket in sockets { try validateListeningUnixStream(socket) }
        return sockets
    }

    /// The inherited listening Unix stream socket called `name` (`FileDescriptorName=` in the socket unit).
    ///
    /// - Throws: ``SocketActivationError/noSocketNamed(_:available:)`` when none has that name, or a validation
    ///   error when it is not a listening Unix stream socket.
    public static func listeningUnixSocket(
        named name: String,
        unsetEnvironment: Bool = false
    ) throws(SocketActivationError) -> InheritedSocket {
        let sockets = try inheritedFileDescriptors(unsetEnvironment: unsetEnvironment)
        guard let socket = sockets.first(where: { $0.name == name }) else {
            throw .noSocketNamed(name, available: sockets.map(\.name))
        }
        try validateListeningUnixStream(socket)
        return socket
    }

    /// Checks with `sd_is_socket_unix` that `socket` is a listening `AF_UNIX` `SOCK_STREAM` socket.
    public static func validateListeningUnixStream(_ socket: InheritedSocket) throws(SocketActivationError) {
        let result = sd_is_socket_unix(socket.fileDescriptor, Int32(SOCK_STREAM.rawValue), 1, nil, 0)
        if result < 0 {
            throw .checkFailed(fileDescriptor: socket.fileDescriptor, name: socket.name, errno: -result)
        }
        if result == 0 {
            throw .notAListeningUnixStreamSocket(fileDescriptor: socket.fileDescriptor, name: socket.name)
        }
    }
}
