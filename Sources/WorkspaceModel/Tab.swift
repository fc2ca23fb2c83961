import StateStore

/// A tab in a pane: another folder kept open.
public struct Tab: Codable, Sendable, Equatable, Identifiable {
    /// Unique among the tabs of every pane.
    public var id: WorkspaceID
    /// The absolute path the tab shows.
    public var folder: String
    /// Keys this version does not declare.
    public var unknownFields: UnknownFields

    /// A tab with the given fields.
    public init(id: WorkspaceID, folder: String, unknownFields: UnknownFields = UnknownFields()) {
        self.id = id
        self.folder = folder
        self.unknownFields = unknownFields
    }

    private enum CodingKeys: String, CodingKey { case id, folder }

    /// Decodes the declared keys and keeps the rest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(WorkspaceID.self, forKey: .id)
        folder = try container.decode(String.self, forKey: .folder)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }

    /// Encodes the kept keys, then the declared ones.
    public func encode(to encoder: any Encoder) throws {
        try unknownFields.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(folder, forKey: .folder)
    }
}
