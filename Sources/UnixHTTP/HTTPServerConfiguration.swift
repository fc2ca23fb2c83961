/// How an ``HTTPServer`` listens and which limits it enforces; a plain value, apart from the running server.
public struct HTTPServerConfiguration: Sendable, Equatable {
    /// The Unix socket path ``HTTPServer/start()`` binds (at most 107 bytes).
    public var socketPath: String
    /// The largest request body accepted, in bytes; larger bodies get 413 and the connection is closed.
    public var maximumBodySize: Int
    /// The permission bits set on a socket file the server creates. The default lets every local user connect:
    /// the application authorizes peers itself from their credentials.
    public var socketFileMode: UInt32
    /// How long a connection may stay silent (no bytes received, no request being handled) before it is closed;
    /// `nil` keeps idle connections open forever.
    public var idleTimeout: Duration?
    /// How long ``HTTPServer/shutdown()`` waits for in-flight requests before closing their connections anyway.
    public var shutdownGracePeriod: Duration
    /// The most connections open at once; a connection beyond them is answered `503 too_many_connections` and
    /// closed. Keep it below the process's open-file limit (`RLIMIT_NOFILE`).
    public var maximumConnections: Int
    /// How long a request may take to arrive whole (head and body) from its first byte; past it the client gets
    /// `408 request_timeout` and the connection closes. `nil` waits forever (the idle timeout still applies to
    /// silence, but not to a client that sends a byte now and then).
    public var requestTimeout: Duration?

    /// Creates a configuration; only the socket path has no default.
    public init(
        socketPath: String,
        maximumBodySize: Int = 1 << 20,
        socketFileMode: UInt32 = 0o666,
        idleTimeout: Duration? = .seconds(60),
        shutdownGracePeriod: Duration = .seconds(10),
        maximumConnections: Int = 1024,
        requestTimeout: Duration? = .seconds(30)
    ) {
        self.socketPath = socketPath
        self.maximumBodySize = maximumBodySize
        self.socketFileMode = socketFileMode
        self.idleTimeout = idleTimeout
        self.shutdownGracePeriod = shutdownGracePeriod
        self.maximumConnections = max(1, maximumConnections)
        self.requestTimeout = requestTimeout
    }
}
