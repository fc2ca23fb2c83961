import StateStore

/// Why a token could not be created or revoked. Nothing changed, except for ``notDurable(_:)``.
public enum SecretStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name is empty, longer than 256 characters or holds control characters.
    case invalidName(reason: String)
    /// The scope is not `read` or `write`.
    case invalidScope(String)
    /// No token has this id.
    case notFound(id: String)
    /// The change was applied in memory but could not be saved; it is retried in the background.
    case notDurable(PersistenceError)
    /// The store is closed (the daemon is stopping).
    case closed

    /// A sentence for the client.
    public var description: String {
        switch self {
        case .invalidName(let reason): return "name \(reason)"
        case .invalidScope(let scope): return "scope \"\(scope)\" is unknown; use read or write"
        case .notFound(let id): return "no token with id \(id)"
        case .notDurable(let error): return "the change is not durable yet: \(error)"
        case .closed: return "the secret store is closed (the daemon is stopping)"
        }
    }
}
