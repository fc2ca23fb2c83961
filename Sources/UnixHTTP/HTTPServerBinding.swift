/// Where an ``HTTPServer`` gets its listening socket.
public enum HTTPServerBinding: Sendable, Equatable {
    /// Bind a new socket at this path. A stale socket file (one nobody listens on) is replaced; anything else at
    /// the path is refused. The server removes the file it created when it shuts down.
    case path(String)
    /// Adopt a socket that is already bound and listening, e.g. one inherited through systemd socket activation.
    /// The server closes the descriptor when it shuts down but never removes the socket file.
    case inheritedDescriptor(Int32)
    /// Bind a new TCP socket to an IP address (`127.0.0.1`, `::1`) and port. A TCP peer has no credentials: its
    /// requests carry ``PeerCredentials/unknown``, so serve only what anyone who reaches the port may read.
    case tcp(host: String, port: Int)
}

extension HTTPServerBinding {
    /// Whether the connections it accepts are Unix socket connections, whose peer the kernel names.
    var hasPeerCredentials: Bool {
        if case .tcp = self { return false }
        return true
    }
}

extension HTTPServerBinding: CustomStringConvertible {
    /// The binding as a log names it, in the form Swift prints an enum case: `path("/run/x.sock")`,
    /// `inheritedDescriptor(3)`, `tcp(host: "127.0.0.1", port: 9100)`. Written out rather than left to reflection,
    /// whose first use of a type looks up several conformances, each a scan of every conformance record of the
    /// process, on a server's start.
    public var description: String {
        switch self {
        case .path(let path): "path(\(path.debugDescription))"
        case .inheritedDescriptor(let descriptor): "inheritedDescriptor(\(descriptor))"
        case .tcp(let host, let port): "tcp(host: \(host.debugDescription), port: \(port))"
        }
    }
}
