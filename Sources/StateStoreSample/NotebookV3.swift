import Foundation
import StateStore

/// A note as version 3 wrote it: gains an optional `createdAt`.
public struct NoteV3: Codable, Sendable, Equatable {
    /// Identifier.
    public var id: String
    /// Title.
    public var title: String
    /// 0 = text, 1 = list.
    public var kind: Int
    /// Whether the note is pinned.
    public var pinned: Bool
    /// When the note was created; `nil` when unknown (every note migrated from version 2).
    public var createdAt: Date?
    /// Tags.
    public var tags: [String]
    /// Keys this version does not declare.
    public var unknownFields = UnknownFields()

    /// A note with the given fields.
    public init(
        id: String, title: String, kind: Int, pinned: Bool, createdAt: Date?, tags: [String],
        unknownFields: UnknownFields
    ) {
        self.id = id
        self.title = title
        self.kind = kind
        self.pinned = pinned
        self.createdAt = createdAt
        self.tags = tags
        self.unknownFields = unknownFields
    }

    private enum CodingKeys: String, CodingKey { case id, title, kind, pinned, createdAt, tags }

    /// Decodes the declared keys and keeps the rest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        kind = try container.decode(Int.self, forKey: .kind)
        pinned = try container.decode(Bool.self, forKey: .pinned)
        createdAt = try container.decodeIfPresent(Date.self, forKey: .createdAt)
        tags = try container.decode([String].self, forKey: .tags)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }

    /// Encodes the kept keys, then the declared ones.
    public func encode(to encoder: any Encoder) throws {
        try unknownFields.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(kind, forKey: .kind)
        try container.encode(pinned, forKey: .pinned)
        try container.encodeIfPresent(createdAt, forKey: .createdAt)
        try container.encode(tags, forKey: .tags)
    }
}

/// The author as version 3 wrote it: `displayName` split into `givenName` and `familyName`.
public struct AuthorV3: Codable, Sendable, Equatable {
    /// Given name.
    public var givenName: String
    /// Family name; empty when the display name was one word.
    public var familyName: String
    /// Age, as text.
    public var age: String
    /// Keys this version does not declare.
    public var unknownFields = UnknownFields()

    /// An author with the given fields.
    public init(givenName: String, familyName: String, age: String, unknownFields: UnknownFields) {
        self.givenName = givenName
        self.familyName = familyName
        self.age = age
        self.unknownFields = unknownFields
    }

    private enum CodingKeys: String, CodingKey { case givenName, familyName, age }

    /// Decodes the declared keys and keeps the rest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        givenName = try container.decode(String.self, forKey: .givenName)
        familyName = try container.decode(String.self, forKey: .familyName)
        age = try container.decode(String.self, forKey: .age)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }

    /// Encodes the kept keys, then the declared ones.
    public func encode(to encoder: any Encoder) throws {
        try unknownFields.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(givenName, forKey: .givenName)
        try container.encode(familyName, forKey: .familyName)
        try container.encode(age, forKey: .age)
    }
}
