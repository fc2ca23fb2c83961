/// Why inherited sockets could not be used.
public enum SocketActivationError: Error, Equatable, CustomStringConvertible {
    /// `sd_listen_fds_with_names` rejected `LISTEN_FDS`/`LISTEN_PID`/`LISTEN_FDNAMES` with `errno`.
    case invalidEnvironment(errno: Int32)
    /// The descriptor is not a listening Unix stream socket (a file, a datagram socket, an unlistened socket…).
    case notAListeningUnixStreamSocket(fileDescriptor: Int32, name: String)
    /// Checking the descriptor failed with `errno` (for example `EBADF`).
    case checkFailed(fileDescriptor: Int32, name: String, errno: Int32)
    /// No inherited socket has the requested name.
    case noSocketNamed(String, available: [String])

    /// A sentence an operator can act on.
    public var description: String {
        switch self {
        case .invalidEnvironment(let errno):
            return "socket activation: LISTEN_FDS/LISTEN_PID/LISTEN_FDNAMES are not valid (errno \(errno))"
        case .notAListeningUnixStreamSocket(let fd, let name):
            return "socket activation: fd \(fd) ('\(name)') is not a listening Unix stream socket (ListenStream=/path)"
        case .checkFailed(let fd, let name, let errno):
            return "socket activation: cannot inspect fd \(fd) ('\(name)') (errno \(errno))"
        case .noSocketNamed(let name, let available):
            let list = available.isEmpty ? "none" : available.joined(separator: ", ")
            return "socket activation: no inherited socket named '\(name)' (inherited: \(list))"
        }
    }
}
