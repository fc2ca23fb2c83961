import StateStore

/// A note as version 1 wrote it: `kind` is a number.
public struct NoteV1: Codable, Sendable, Equatable {
    /// Identifier.
    public var id: String
    /// Title.
    public var title: String
    /// 0 = text, 1 = list.
    public var kind: Int
    /// Tags.
    public var tags: [String]
    /// Keys this version does not declare.
    public var unknownFields = UnknownFields()

    /// A note with the given fields.
    public init(id: String, title: String, kind: Int, tags: [String]) {
        self.id = id
        self.title = title
        self.kind = kind
        self.tags = tags
    }

    private enum CodingKeys: String, CodingKey { case id, title, kind, tags }

    /// Decodes the declared keys and keeps the rest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        kind = try container.decode(Int.self, forKey: .kind)
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
        try container.encode(tags, forKey: .tags)
    }
}

/// The author as version 1 wrote it: one `name`, and `age` as a string.
public struct AuthorV1: Codable, Sendable, Equatable {
    /// Full name.
    public var name: String
    /// Age, as text.
    public var age: String
    /// Keys this version does not declare.
    public var unknownFields = UnknownFields()

    /// An author with the given fields.
    public init(name: String, age: String) {
        self.name = name
        self.age = age
    }

    private enum CodingKeys: String, CodingKey { case name, age }

    /// Decodes the declared keys and keeps the rest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        age = try container.decode(String.self, forKey: .age)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }

    /// Encodes the kept keys, then the declared ones.
    public func encode(to encoder: any Encoder) throws {
        try unknownFields.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(age, forKey: .age)
    }
}
