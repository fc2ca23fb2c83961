import StateStore

/// The current (version 2) contents of `secrets.json.enc`: the installation record and the API tokens.
///
/// Keys this release does not declare are kept at every level and written back.
public struct Secrets: Codable, Sendable, Equatable {
    /// Which installation this is; written once.
    public var installation: InstallationRecord
    /// Every token ever created, revoked ones included, in creation order.
    public var tokens: [TokenRecord]
    /// Root keys this version does not declare.
    public var unknownFields: UnknownFields

    /// A store with the given parts.
    public init(
        installation: InstallationRecord, tokens: [TokenRecord] = [], unknownFields: UnknownFields = UnknownFields()
    ) {
        self.installation = installation
        self.tokens = tokens
        self.unknownFields = unknownFields
    }

    private enum CodingKeys: String, CodingKey { case installation, tokens }

    /// Decodes the declared keys and keeps the rest; a missing `tokens` reads as none and is recorded as
    /// defaulted in the load report.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        installation = try container.decode(InstallationRecord.self, forKey: .installation)
        tokens = try container.decode([TokenRecord].self, forKey: .tokens, defaultingTo: [], in: decoder)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }

    /// Encodes the kept keys, then the declared ones.
    public func encode(to encoder: any Encoder) throws {
        try unknownFields.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(installation, forKey: .installation)
        try container.encode(tokens, forKey: .tokens)
    }

    /// The token with `id`, if any.
    public func token(_ id: String) -> TokenRecord? {
        tokens.first { $0.id == id }
    }
}
