import Foundation
import StateStore

/// A favorite place: a named path.
public struct Favorite: Codable, Sendable, Equatable, Identifiable {
    /// Unique among favorites.
    public var id: WorkspaceID
    /// Shown to people.
    public var name: String
    /// The absolute path it points to.
    public var path: String
    /// When it was added; `nil` when unknown (every favorite migrated from version 2 or earlier).
    public var createdAt: Date?
    /// Keys this version does not declare.
    public var unknownFields: UnknownFields

    /// A favorite with the given fields.
    public init(
        id: WorkspaceID, name: String, path: String, createdAt: Date? = nil,
        unknownFields: UnknownFields = UnknownFields()
    ) {
        self.id = id
        self.name = name
        self.path = path
        self.createdAt = createdAt
        self.unknownFields = unknownFields
    }

    private enum CodingKeys: String, CodingKey { case id, name, path, createdAt }

    /// Decodes the declared keys and keeps the rest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(WorkspaceID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        path = try container.decode(String.self, forKey: .path)
        createdAt = try container.decodeIfPresent(Date.self, forKey: .createdAt)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }

    /// Encodes the kept keys, then the declared ones; an unknown date is left out.
    public func encode(to encoder: any Encoder) throws {
        try unknownFields.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(path, forKey: .path)
        try container.encodeIfPresent(createdAt, forKey: .createdAt)
    }
}
