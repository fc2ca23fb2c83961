import Foundation
import StateStore

/// One API token as the secret store keeps it: never the token itself, only the SHA-256 of its secret.
///
/// Revoked tokens stay (with ``revokedAt``) so that a request with one is answered, and logged, by its id.
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

    /// A record with the given fields.
    public init(
        id: String, name: String, scope: TokenScope, createdAt: Date, lastUsedAt: Date? = nil, revokedAt: Date? = nil,
        secretHash: String, unknownFields: UnknownFields = UnknownFields()
    ) {
        self.id = id
        self.name = name
        self.scope = scope
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
        self.secretHash = secretHash
        self.unknownFields = unknownFields
    }

    /// Whether the token has been revoked.
    public var isRevoked: Bool { revokedAt != nil }

    private enum CodingKeys: String, CodingKey {
        case id, name, scope, createdAt, lastUsedAt, revokedAt, secretHash
    }

    /// Decodes the declared keys and keeps the rest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        scope = try container.decode(TokenScope.self, forKey: .scope)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        lastUsedAt = try container.decodeIfPresent(Date.self, forKey: .lastUsedAt)
        revokedAt = try container.decodeIfPresent(Date.self, forKey: .revokedAt)
        secretHash = try container.decode(String.self, forKey: .secretHash)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }

    /// Encodes the kept keys, then the declared ones; dates that are not set are left out.
    public func encode(to encoder: any Encoder) throws {
        try unknownFields.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(scope, forKey: .scope)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(lastUsedAt, forKey: .lastUsedAt)
        try container.encodeIfPresent(revokedAt, forKey: .revokedAt)
        try container.encode(secretHash, forKey: .secretHash)
    }
}
