import StateStore

/// Who the workspace belongs to.
public struct Owner: Codable, Sendable, Equatable {
    /// The name shown for the owner (`name` before version 3).
    public var alias: String
    /// The owner's e-mail address; empty when not given.
    public var email: String
    /// Keys this version does not declare.
    public var unknownFields: UnknownFields

    /// An owner with the given fields.
    public init(alias: String = "", email: String = "", unknownFields: UnknownFields = UnknownFields()) {
        self.alias = alias
        self.email = email
        self.unknownFields = unknownFields
    }

    private enum CodingKeys: String, CodingKey { case alias, email }

    /// Decodes the declared keys and keeps the rest; a missing `email` reads as "" and is recorded as defaulted
    /// in the load report.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        alias = try container.decode(String.self, forKey: .alias)
        email = try container.decode(String.self, forKey: .email, defaultingTo: "", in: decoder)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }

    /// Encodes the kept keys, then the declared ones.
    public func encode(to encoder: any Encoder) throws {
        try unknownFields.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(alias, forKey: .alias)
        try container.encode(email, forKey: .email)
    }
}
