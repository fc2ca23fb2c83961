import StateStore

// Version 2 of workspace.json as it shipped (`"version": 2`): panes gain `focusedTabIndex` and `tabs`, the
// owner gains `email`. Favorites are unchanged (``FavoriteV1``). Frozen: never edit these types. Version 3
// reuses ``ProjectV2``, ``PaneV2`` and ``TabV2`` unchanged. The one allowed change: a field the schema gives a
// default (`focusedTabIndex` 0, `tabs` [], `email` "") reads as that default when missing, recorded in the load
// report, so such a file loads instead of being quarantined; no file that loaded before reads differently.

/// The root as version 2 wrote it.
struct WorkspaceV2: Decodable, Sendable {
    var projects: [ProjectV2]
    var favorites: [FavoriteV1]
    var activeProjectID: WorkspaceID?
    var owner: OwnerV2
    var unknownFields: UnknownFields

    private enum CodingKeys: String, CodingKey { case projects, favorites, activeProjectID, owner }

    init(
        projects: [ProjectV2], favorites: [FavoriteV1], activeProjectID: WorkspaceID?, owner: OwnerV2,
        unknownFields: UnknownFields
    ) {
        self.projects = projects
        self.favorites = favorites
        self.activeProjectID = activeProjectID
        self.owner = owner
        self.unknownFields = unknownFields
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        projects = try container.decode([ProjectV2].self, forKey: .projects)
        favorites = try container.decode([FavoriteV1].self, forKey: .favorites)
        activeProjectID = try container.decodeIfPresent(WorkspaceID.self, forKey: .activeProjectID)
        owner = try container.decode(OwnerV2.self, forKey: .owner)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }
}

/// A project as versions 2 and 3 wrote it (its panes are ``PaneV2``).
struct ProjectV2: Decodable, Sendable {
    var id: WorkspaceID
    var name: String
    var layout: Layout
    var panes: [PaneV2]
    var unknownFields: UnknownFields

    private enum CodingKeys: String, CodingKey { case id, name, layout, panes }

    init(id: WorkspaceID, name: String, layout: Layout, panes: [PaneV2], unknownFields: UnknownFields) {
        self.id = id
        self.name = name
        self.layout = layout
        self.panes = panes
        self.unknownFields = unknownFields
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(WorkspaceID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        layout = try container.decode(Layout.self, forKey: .layout)
        panes = try container.decode([PaneV2].self, forKey: .panes)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }
}

/// A pane as versions 2 and 3 wrote it: `viewMode` still a number, plus `focusedTabIndex` and `tabs`.
struct PaneV2: Decodable, Sendable {
    var id: WorkspaceID
    var folder: String
    var viewMode: Int
    var focusedTabIndex: Int
    var tabs: [TabV2]
    var unknownFields: UnknownFields

    private enum CodingKeys: String, CodingKey { case id, folder, viewMode, focusedTabIndex, tabs }

    init(
        id: WorkspaceID, folder: String, viewMode: Int, focusedTabIndex: Int, tabs: [TabV2],
        unknownFields: UnknownFields
    ) {
        self.id = id
        self.folder = folder
        self.viewMode = viewMode
        self.focusedTabIndex = focusedTabIndex
        self.tabs = tabs
        self.unknownFields = unknownFields
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(WorkspaceID.self, forKey: .id)
        folder = try container.decode(String.self, forKey: .folder)
        viewMode = try container.decode(Int.self, forKey: .viewMode)
        focusedTabIndex = try container.decode(Int.self, forKey: .focusedTabIndex, defaultingTo: 0, in: decoder)
        tabs = try container.decode([TabV2].self, forKey: .tabs, defaultingTo: [], in: decoder)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }
}

/// A tab as versions 2 and 3 wrote it.
struct TabV2: Decodable, Sendable {
    var id: WorkspaceID
    var folder: String
    var unknownFields: UnknownFields

    private enum CodingKeys: String, CodingKey { case id, folder }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(WorkspaceID.self, forKey: .id)
        folder = try container.decode(String.self, forKey: .folder)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }
}

/// The owner as version 2 wrote it: gains `email`.
struct OwnerV2: Decodable, Sendable {
    var name: String
    var age: String
    var email: String
    var unknownFields: UnknownFields

    private enum CodingKeys: String, CodingKey { case name, age, email }

    init(name: String, age: String, email: String, unknownFields: UnknownFields) {
        self.name = name
        self.age = age
        self.email = email
        self.unknownFields = unknownFields
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        age = try container.decode(String.self, forKey: .age)
        email = try container.decode(String.self, forKey: .email, defaultingTo: "", in: decoder)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }
}
