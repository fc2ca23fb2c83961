/// Where an ``HTTPServer`` gets its listening socket.
public enum HTTPServerBinding: Sendable, Equatable {
    /// Bind a new socket at this path. A stale socket file (one nobody listens on) is replaced; anything else at
    /// the path is refused. The server removes the file it created when it shuts down.
    case path(String)
    /// Adopt a socket that is already bound and listening, e.g. one inherited through systemd socket activation.
    /// The server closes the descriptor when it shuts down but never removes the socket file.
    case inheritedDescriptor(Int32)
}
