import FoundationEssentials
import StateModel
import StateStore

/// One API token as the secret store keeps it: never the token itself, only the SHA-256 of its secret.
///
/// Revoked tokens stay (with ``revokedAt``) so that a request with one is answered, and logged, by its id.
@StateModel
public struct TokenRecord: Codable, Sendable, Equatable, Identifiable {
    /// 12 lower-case hex digits; the part of the token between `wsd_` and the secret.
    public var id: String
    /// What the token is for, as its creator named it.
    public var name: String
    /// What it may do.
    public var scope: TokenScope
    /// When it was created (whole seconds).
    public var createdAt: Date
    /// When it last authenticated a request, to the minute (updated at most once a minute); `nil` when never.
    public var lastUsedAt: Date?
    /// When it was revoked; `nil` while it is valid.
    public var revokedAt: Date?
    /// Lower-case hex SHA-256 of the token's 32 secret bytes.
    public var secretHash: String
    /// Keys this version does not declare.
    public var unknownFields: UnknownFields
}

extension TokenRecord {
    /// Whether the token has been revoked.
    public var isRevoked: Bool { revokedAt != nil }
}
