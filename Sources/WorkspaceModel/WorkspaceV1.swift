import StateStore

// Version 1 of workspace.json as it shipped (the first release; no `version` key). Frozen: never edit these
// types; a later change gets a new version. Only read, never written, so they are Decodable only.

/// The root as version 1 wrote it.
struct WorkspaceV1: Decodable, Sendable {
    var projects: [ProjectV1]
    var favorites: [FavoriteV1]
    var activeProjectID: WorkspaceID?
    var owner: OwnerV1
    var unknownFields: UnknownFields

    private enum CodingKeys: String, CodingKey { case projects, favorites, activeProjectID, owner }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        projects = try container.decode([ProjectV1].self, forKey: .projects)
        favorites = try container.decode([FavoriteV1].self, forKey: .favorites)
        activeProjectID = try container.decodeIfPresent(WorkspaceID.self, forKey: .activeProjectID)
        owner = try container.decode(OwnerV1.self, forKey: .owner)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }
}

/// A project as version 1 wrote it.
struct ProjectV1: Decodable, Sendable {
    var id: WorkspaceID
    var name: String
    var layout: Layout
    var panes: [PaneV1]
    var unknownFields: UnknownFields

    private enum CodingKeys: String, CodingKey { case id, name, layout, panes }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(WorkspaceID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        layout = try container.decode(Layout.self, forKey: .layout)
        panes = try container.decode([PaneV1].self, forKey: .panes)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }
}

/// A pane as version 1 wrote it: `viewMode` is a number (0 list, 1 icons, 2 columns), no tabs.
struct PaneV1: Decodable, Sendable {
    var id: WorkspaceID
    var folder: String
    var viewMode: Int
    var unknownFields: UnknownFields

    private enum CodingKeys: String, CodingKey { case id, folder, viewMode }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(WorkspaceID.self, forKey: .id)
        folder = try container.decode(String.self, forKey: .folder)
        viewMode = try container.decode(Int.self, forKey: .viewMode)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }
}

/// A favorite as versions 1 and 2 wrote it: no `createdAt`.
struct FavoriteV1: Decodable, Sendable {
    var id: WorkspaceID
    var name: String
    var path: String
    var unknownFields: UnknownFields

    private enum CodingKeys: String, CodingKey { case id, name, path }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(WorkspaceID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        path = try container.decode(String.self, forKey: .path)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }
}

/// The owner as version 1 wrote it: `name`, and `age` as a string.
struct OwnerV1: Decodable, Sendable {
    var name: String
    var age: String
    var unknownFields: UnknownFields

    private enum CodingKeys: String, CodingKey { case name, age }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        age = try container.decode(String.self, forKey: .age)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }
}
