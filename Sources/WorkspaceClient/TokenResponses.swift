import Foundation
import StateModel
import StateStore

/// An API token as `GET /v1/tokens` lists it: never its secret. Every key is written, `null` included.
@StateModel
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
    @StateWritesNull public var lastUsedAt: Date?
    /// When it was revoked; `nil` while it is valid.
    @StateWritesNull public var revokedAt: Date?
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
@StateModel
public struct SecretsStatus: Codable, Sendable, Equatable {
    /// `enabled` (tokens are accepted) or `disabled` (a bearer token gets 401; ``reason`` says why).
    public var state: String
    /// Why token authentication is disabled; `nil` while enabled.
    @StateWritesNull public var reason: String?
    /// A stable code for the reason (`cannot_open`, `missing_file`, `no_key`, …); `nil` while enabled.
    @StateWritesNull public var reasonCode: String?
    /// Where the key comes from: `credential` or `key-file` (`nil` when no key was found).
    @StateWritesNull public var keySource: String?
    /// The id of the key in use (16 hex digits; never the key).
    @StateWritesNull public var keyId: String?
    /// Tokens that are not revoked; `nil` while disabled.
    @StateWritesNull public var activeTokens: Int?
}
