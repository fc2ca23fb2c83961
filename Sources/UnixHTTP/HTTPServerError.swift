/// Why an ``HTTPServer`` could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path is longer than a Unix socket address holds (107 bytes).
    case socketPathTooLong(path: String, bytes: Int)
    /// Something other than a socket is at the path; the server never removes it.
    case pathOccupied(path: String, kind: String)
    /// A live server already accepts connections on the socket at the path.
    case addressInUse(path: String)
    /// A system call on the socket file failed.
    case socketFileFailed(path: String, operation: String, errno: Int32)
    /// Binding the socket or adopting the inherited descriptor failed.
    case listenFailed(binding: HTTPServerBinding, reason: String)
    /// ``HTTPServer/start(binding:)``, ``HTTPServer/listen(binding:)`` or ``HTTPServer/serve(router:authorize:)``
    /// was called out of turn (on a server that listens or serves already, or was shut down; `start` also on one
    /// without routes); `state` says which.
    case notStartable(state: String)

    /// A sentence naming the path or descriptor and the cause.
    public var description: String {
        switch self {
        case .socketPathTooLong(let path, let bytes):
            return "socket path \(path) is \(bytes) bytes long; Unix sockets allow at most 107"
        case .pathOccupied(let path, let kind):
            return "\(path) is \(kind), not a socket; refusing to replace it"
        case .addressInUse(let path):
            return "another server already listens on \(path)"
        case .socketFileFailed(let path, let operation, let errno):
            return "\(operation) \(path) failed: \(errnoDescription(errno))"
        case .listenFailed(let binding, let reason):
            return "cannot listen on \(binding): \(reason)"
        case .notStartable(let state):
            return "the server cannot start: it is \(state)"
        }
    }
}
