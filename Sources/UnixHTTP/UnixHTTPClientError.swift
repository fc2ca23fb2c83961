/// Why ``UnixHTTPClient/send(method:path:headers:body:)`` got no response.
public enum UnixHTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing accepts connections at the path: the file is missing, is not a socket or nobody listens, or the
    /// connection was reset before any response (a socket-activated service failing to start) (`errno` is e.g.
    /// `ENOENT`, `ECONNREFUSED` or `ECONNRESET` when known). A command-line tool would suggest checking the daemon.
    case unreachable(path: String, errno: Int32?, reason: String)
    /// No complete response arrived within the timeout.
    case timedOut(path: String, after: Duration)
    /// The bytes received are not an HTTP/1.1 response, or the connection ended before the response did.
    case malformedResponse(reason: String)
    /// The request cannot be sent as given (e.g. the path does not start with `/`).
    case invalidRequest(reason: String)

    /// A sentence naming the socket path and the cause.
    public var description: String {
        switch self {
        case .unreachable(let path, _, let reason): return "cannot connect to \(path): \(reason)"
        case .timedOut(let path, let after): return "no response from \(path) within \(after)"
        case .malformedResponse(let reason): return "malformed response: \(reason)"
        case .invalidRequest(let reason): return "invalid request: \(reason)"
        }
    }
}
