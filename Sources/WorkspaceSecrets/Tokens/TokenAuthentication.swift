/// What a presented token is worth. Every case but ``granted(id:scope:)`` is a refusal (HTTP 401); each names the
/// token's id when the presented text has one, and none carries the secret.
public enum TokenAuthentication: Sendable, Equatable, CustomStringConvertible {
    /// A valid token: it grants `scope`.
    case granted(id: String, scope: TokenScope)
    /// No token has this id (never created, or from another installation).
    case unknown(id: String)
    /// A token with this id exists, but the secret is not its secret.
    case wrongSecret(id: String)
    /// The token was revoked.
    case revoked(id: String)
    /// The text is not a token (`id` when it starts like one with a well-formed id).
    case malformed(id: String?)

    /// The token's id, when there is one.
    public var tokenID: String? {
        switch self {
        case .granted(let id, _), .unknown(let id), .wrongSecret(let id), .revoked(let id): return id
        case .malformed(let id): return id
        }
    }

    /// A sentence for the client and the journal: the id and why, never the secret.
    public var description: String {
        switch self {
        case .granted(let id, let scope): return "token \(id) grants \(scope.rawValue)"
        case .unknown(let id): return "token \(id) is not known"
        case .wrongSecret(let id): return "token \(id) was presented with a wrong secret"
        case .revoked(let id): return "token \(id) was revoked"
        case .malformed(let id):
            let named = id.map { " (id \($0))" } ?? ""
            return "the bearer token\(named) is malformed: tokens look like wsd_<12 hex>_<43 base64url characters>"
        }
    }
}
