import WorkspaceAPI

/// Why a ``WorkspaceClient`` call did not produce its result.
public enum WorkspaceClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The daemon answered with a 4xx or 5xx status and the API's error body; nothing changed.
    case refused(status: Int, APIError)
    /// Nothing accepts connections at the socket path (missing file, nobody listening, permission denied), or the
    /// connection was reset before any response (a socket-activated daemon failing to start).
    case unreachable(socketPath: String, reason: String)
    /// The daemon accepted the connection but sent no complete response in time.
    case timedOut(socketPath: String, after: Duration)
    /// The response is not what the API promises (not HTTP, an unexpected status or a body that does not decode).
    case invalidResponse(String)

    /// A sentence naming the cause: the daemon's message and field, or the socket path and reason.
    public var description: String {
        switch self {
        case .refused(let status, let error): return "refused (\(status) \(error.code)): \(error)"
        case .unreachable(let socketPath, let reason): return "cannot reach workspaced at \(socketPath): \(reason)"
        case .timedOut(let socketPath, let after): return "no response from workspaced at \(socketPath) within \(after)"
        case .invalidResponse(let reason): return "invalid response from workspaced: \(reason)"
        }
    }
}
