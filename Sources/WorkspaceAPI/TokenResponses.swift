import FoundationEssentials

/// An API token as `GET /v1/tokens` lists it: never its secret. Every key is written, `null` included.
public struct TokenInfo: Codable, Sendable, Equatable {
    /// 12 lower-case hex digits, the part of the token after `wsd_`.
    public var id: String
    /// What the token is for.
    public var name: String
    /// `read` or `write` (or a scope a newer release wrote, which grants nothing here).
    public var scope: String
    /// When it was created.
    public var createdAt: Date
    /// When it last authenticated a request (updated at most once a minute); `nil` when never.
    public var lastUsedAt: Date?
    /// When it was revoked; `nil` while it is valid.
    public var revokedAt: Date?

    /// A token record with every field.
    public init(
        id: String, name: String, scope: String, createdAt: Date, lastUsedAt: Date? = nil, revokedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.scope = scope
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }

    private enum CodingKeys: String, CodingKey { case id, name, scope, createdAt, lastUsedAt, revokedAt }

    /// Writes every key, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(scope, forKey: .scope)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(lastUsedAt, forKey: .lastUsedAt)
        try container.encode(revokedAt, forKey: .revokedAt)
    }
}

/// `POST /v1/tokens`: the new token's fields and, once only, the token itself.
public struct CreatedTokenResponse: Codable, Sendable, Equatable {
    /// The token to send as `Authorization: Bearer <token>`; it is never shown again.
    public var token: String
    /// The token's record (as listed).
    public var info: TokenInfo

    /// A response with the given parts.
    public init(token: String, info: TokenInfo) {
        self.token = token
        self.info = info
    }

    private enum CodingKeys: String, CodingKey { case token }

    /// Reads the record's keys and `token` from one object.
    public init(from decoder: any Decoder) throws {
        info = try TokenInfo(from: decoder)
        token = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .token)
    }

    /// Writes one object: the record's keys and `token`.
    public func encode(to encoder: any Encoder) throws {
        try info.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(token, forKey: .token)
    }
}

/// The installation in `GET /v1/status`: written once at the first start, kept across reinstalls.
public struct InstallationStatus: Codable, Sendable, Equatable {
    /// The installation's id (a lower-case UUID).
    public var id: String
    /// When the daemon first started.
    public var firstStartedAt: Date
    /// The release that first started.
    public var firstRelease: String

    /// An installation with the given fields.
    public init(id: String, firstStartedAt: Date, firstRelease: String) {
        self.id = id
        self.firstStartedAt = firstStartedAt
        self.firstRelease = firstRelease
    }
}

/// The secret store and token authentication in `GET /v1/status`. Every key is written, `null` included.
public struct SecretsStatus: Codable, Sendable, Equatable {
    /// `enabled` (tokens are accepted) or `disabled` (a bearer token gets 401; ``reason`` says why).
    public var state: String
    /// Why token authentication is disabled; `nil` while enabled.
    public var reason: String?
    /// A stable code for the reason (`cannot_open`, `missing_file`, `no_key`, …); `nil` while enabled.
    public var reasonCode: String?
    /// Where the key comes from: `credential` or `key-file` (`nil` when no key was found).
    public var keySource: String?
    /// The id of the key in use (16 hex digits; never the key).
    public var keyId: String?
    /// Tokens that are not revoked; `nil` while disabled.
    public var activeTokens: Int?

    /// A status with every field.
    public init(
        state: String, reason: String? = nil, reasonCode: String? = nil, keySource: String? = nil, keyId: String? = nil,
        activeTokens: Int? = nil
    ) {
        self.state = state
        self.reason = reason
        self.reasonCode = reasonCode
        self.keySource = keySource
        self.keyId = keyId
        self.activeTokens = activeTokens
    }

    private enum CodingKeys: String, CodingKey { case state, reason, reasonCode, keySource, keyId, activeTokens }

    /// Writes every key, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state, forKey: .state)
        try container.encode(reason, forKey: .reason)
        try container.encode(reasonCode, forKey: .reasonCode)
        try container.encode(keySource, forKey: .keySource)
        try container.encode(keyId, forKey: .keyId)
        try container.encode(activeTokens, forKey: .activeTokens)
    }
}
