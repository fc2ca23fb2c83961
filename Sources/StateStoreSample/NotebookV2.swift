import StateStore

/// A note as version 2 wrote it: gains `pinned`.
public struct NoteV2: Codable, Sendable, Equatable {
    /// Identifier.
    public var id: String
    /// Title.
    public var title: String
    /// 0 = text, 1 = list.
    public var kind: Int
    /// Whether the note is pinned.
    public var pinned: Bool
    /// Tags.
    public var tags: [String]
    /// Keys this version does not declare.
    public var unknownFields = UnknownFields()

    /// A note with the given fields.
    public init(id: String, title: String, kind: Int, pinned: Bool, tags: [String], unknownFields: UnknownFields) {
        self.id = id
        self.title = title
        self.kind = kind
        self.pinned = pinned
        self.tags = tags
        self.unknownFields = unknownFields
    }

    private enum CodingKeys: String, CodingKey { case id, title, kind, pinned, tags }

    /// Decodes the declared keys and keeps the rest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        kind = try container.decode(Int.self, forKey: .kind)
        pinned = try container.decode(Bool.self, forKey: .pinned)
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
        try container.encode(tags, forKey: .tags)
    }
}

/// The author as version 2 wrote it: `name` renamed `displayName`.
public struct AuthorV2: Codable, Sendable, Equatable {
    /// Full name.
    public var displayName: String
    /// Age, as text.
    public var age: String
    /// Keys this version does not declare.
    public var unknownFields = UnknownFields()

    /// An author with the given fields.
    public init(displayName: String, age: String, unknownFields: UnknownFields) {
        self.displayName = displayName
        self.age = age
        self.unknownFields = unknownFields
    }

    private enum CodingKeys: String, CodingKey { case displayName, age }

    /// Decodes the declared keys and keeps the rest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        displayName = try container.decode(String.self, forKey: .displayName)
        age = try container.decode(String.self, forKey: .age)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }

    /// Encodes the kept keys, then the declared ones.
    public func encode(to encoder: any Encoder) throws {
        try unknownFields.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(age, forKey: .age)
    }
}
