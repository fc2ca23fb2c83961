import Foundation
import StateStore

/// What a note holds; unknown kinds written by newer releases are kept as they are.
public struct NoteKind: ExtensibleEnum {
    /// The raw value as stored.
    public let rawValue: String
    /// Wraps any raw value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Free text.
    public static let text = NoteKind(rawValue: "text")
    /// A checklist.
    public static let list = NoteKind(rawValue: "list")
    /// The kinds this release understands.
    public static let knownValues: [NoteKind] = [.text, .list]
}

/// A note at the current version: `kind` is a string.
public struct Note: Codable, Sendable, Equatable {
    /// Identifier.
    public var id: String
    /// Title.
    public var title: String
    /// What the note holds.
    public var kind: NoteKind
    /// Whether the note is pinned.
    public var pinned: Bool
    /// When the note was created; `nil` when unknown.
    public var createdAt: Date?
    /// Tags.
    public var tags: [String]
    /// Keys this version does not declare.
    public var unknownFields = UnknownFields()

    /// A note with the given fields.
    public init(
        id: String, title: String, kind: NoteKind, pinned: Bool = false, createdAt: Date? = nil,
        tags: [String] = [], unknownFields: UnknownFields = UnknownFields()
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
        kind = try container.decode(NoteKind.self, forKey: .kind)
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

/// The author at the current version: `age` removed.
public struct Author: Codable, Sendable, Equatable {
    /// Given name.
    public var givenName: String
    /// Family name.
    public var familyName: String
    /// Keys this version does not declare.
    public var unknownFields = UnknownFields()

    /// An author with the given fields.
    public init(givenName: String, familyName: String, unknownFields: UnknownFields = UnknownFields()) {
        self.givenName = givenName
        self.familyName = familyName
        self.unknownFields = unknownFields
    }

    private enum CodingKeys: String, CodingKey { case givenName, familyName }

    /// Decodes the declared keys and keeps the rest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        givenName = try container.decode(String.self, forKey: .givenName)
        familyName = try container.decode(String.self, forKey: .familyName)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }

    /// Encodes the kept keys, then the declared ones.
    public func encode(to encoder: any Encoder) throws {
        try unknownFields.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(givenName, forKey: .givenName)
        try container.encode(familyName, forKey: .familyName)
    }
}
