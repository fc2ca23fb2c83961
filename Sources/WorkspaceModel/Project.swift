import StateStore

/// A project: a named set of panes in a layout.
public struct Project: Codable, Sendable, Equatable, Identifiable {
    /// Unique among projects.
    public var id: WorkspaceID
    /// Shown to people.
    public var name: String
    /// How the panes are arranged; may be a layout from a newer release.
    public var layout: Layout
    /// The panes, in order.
    public var panes: [Pane]
    /// Keys this version does not declare.
    public var unknownFields: UnknownFields

    /// A project with the given fields.
    public init(
        id: WorkspaceID, name: String, layout: Layout, panes: [Pane] = [],
        unknownFields: UnknownFields = UnknownFields()
    ) {
        self.id = id
        self.name = name
        self.layout = layout
        self.panes = panes
        self.unknownFields = unknownFields
    }

    private enum CodingKeys: String, CodingKey { case id, name, layout, panes }

    /// Decodes the declared keys and keeps the rest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(WorkspaceID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        layout = try container.decode(Layout.self, forKey: .layout)
        panes = try container.decode([Pane].self, forKey: .panes)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }

    /// Encodes the kept keys, then the declared ones.
    public func encode(to encoder: any Encoder) throws {
        try unknownFields.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(layout, forKey: .layout)
        try container.encode(panes, forKey: .panes)
    }
}
