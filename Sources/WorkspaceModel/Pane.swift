import StateStore

/// A pane: a folder shown in a view mode, with tabs.
public struct Pane: Codable, Sendable, Equatable, Identifiable {
    /// Unique among the panes of every project.
    public var id: WorkspaceID
    /// The absolute path the pane shows.
    public var folder: String
    /// How the folder is shown; may be a mode from a newer release.
    public var viewMode: ViewMode
    /// The index of the focused tab in ``tabs``; 0 when there are no tabs.
    public var focusedTabIndex: Int
    /// The open tabs, in order.
    public var tabs: [Tab]
    /// Keys this version does not declare.
    public var unknownFields: UnknownFields

    /// A pane with the given fields.
    public init(
        id: WorkspaceID, folder: String, viewMode: ViewMode, focusedTabIndex: Int = 0, tabs: [Tab] = [],
        unknownFields: UnknownFields = UnknownFields()
    ) {
        self.id = id
        self.folder = folder
        self.viewMode = viewMode
        self.focusedTabIndex = focusedTabIndex
        self.tabs = tabs
        self.unknownFields = unknownFields
    }

    /// Whether ``focusedTabIndex`` names a tab, or is 0 when there are none.
    public var hasValidFocus: Bool {
        tabs.isEmpty ? focusedTabIndex == 0 : tabs.indices.contains(focusedTabIndex)
    }

    /// The focused tab; `nil` when there are no tabs.
    public var focusedTab: Tab? {
        tabs.indices.contains(focusedTabIndex) ? tabs[focusedTabIndex] : nil
    }

    private enum CodingKeys: String, CodingKey { case id, folder, viewMode, focusedTabIndex, tabs }

    /// Decodes the declared keys and keeps the rest; a missing `focusedTabIndex` reads as 0 and missing `tabs` as
    /// none, each recorded as defaulted in the load report.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(WorkspaceID.self, forKey: .id)
        folder = try container.decode(String.self, forKey: .folder)
        viewMode = try container.decode(ViewMode.self, forKey: .viewMode)
        focusedTabIndex = try container.decode(Int.self, forKey: .focusedTabIndex, defaultingTo: 0, in: decoder)
        tabs = try container.decode([Tab].self, forKey: .tabs, defaultingTo: [], in: decoder)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }

    /// Encodes the kept keys, then the declared ones.
    public func encode(to encoder: any Encoder) throws {
        try unknownFields.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(folder, forKey: .folder)
        try container.encode(viewMode, forKey: .viewMode)
        try container.encode(focusedTabIndex, forKey: .focusedTabIndex)
        try container.encode(tabs, forKey: .tabs)
    }
}
