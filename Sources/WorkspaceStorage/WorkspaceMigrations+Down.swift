import StateStore
import WorkspaceModel

/// The reverse steps, for rolling the state back to an older release (`workspaced migrate --to N`, a package
/// downgrade). Each writes a version as the older release wrote it; a field the older version cannot hold is set
/// aside in the record's unknown fields, which the older release keeps and writes back, and the up step takes it
/// back, so that down then up gives the state that went down.
extension WorkspaceMigrations {
    /// The pane key under which ``v4ToV3(_:_:)`` sets aside a view mode version 3 has no number for.
    static let viewModeKey = "viewModeName"
    /// The number such a pane is written with (list).
    static let unnamedViewModeNumber = 0

    /// v4 → v3: view modes become numbers again (a mode from a newer release is written as 0, list, with its
    /// name set aside as `viewModeName`); the owner gets back an `age`, "" (version 4 has none).
    @Sendable static func v4ToV3(_ new: Workspace, _ context: inout MigrationContext) throws -> WorkspaceV3 {
        context.defaulted("owner.age")
        return WorkspaceV3(
            projects: try new.projects.map { project in
                ProjectV2(
                    id: project.id, name: project.name, layout: project.layout,
                    panes: try project.panes.map { pane in
                        var fields = pane.unknownFields
                        let number = storedNumber(of: pane.viewMode)
                        if number == nil {
                            fields = try context.setAside(
                                pane.viewMode.rawValue, as: viewModeKey, in: fields, at: "projects[].panes[]")
                        }
                        return PaneV2(
                            id: pane.id, folder: pane.folder, viewMode: number ?? unnamedViewModeNumber,
                            focusedTabIndex: pane.focusedTabIndex,
                            tabs: pane.tabs.map {
                                TabV2(id: $0.id, folder: $0.folder, unknownFields: $0.unknownFields)
                            },
                            unknownFields: fields)
                    },
                    unknownFields: project.unknownFields)
            },
            favorites: new.favorites.map { favorite in
                FavoriteV3(
                    id: favorite.id, name: favorite.name, path: favorite.path, createdAt: favorite.createdAt,
                    unknownFields: favorite.unknownFields)
            },
            activeProjectID: new.activeProjectID,
            owner: OwnerV3(
                alias: new.owner.alias, age: "", email: new.owner.email,
                unknownFields: context.carry(new.owner.unknownFields, to: "owner", declaring: ["age"])),
            unknownFields: new.unknownFields)
    }

    /// v3 → v2: the owner's `alias` is written as `name`; a favorite's `createdAt` is set aside (version 2 has
    /// none).
    @Sendable static func v3ToV2(_ new: WorkspaceV3, _ context: inout MigrationContext) throws -> WorkspaceV2 {
        WorkspaceV2(
            projects: new.projects,
            favorites: try new.favorites.map { favorite in
                var fields = favorite.unknownFields
                if let createdAt = favorite.createdAt {
                    fields = try context.setAside(createdAt, as: "createdAt", in: fields, at: "favorites[]")
                }
                return FavoriteV1(id: favorite.id, name: favorite.name, path: favorite.path, unknownFields: fields)
            },
            activeProjectID: new.activeProjectID,
            owner: OwnerV2(
                name: new.owner.alias, age: new.owner.age, email: new.owner.email,
                unknownFields: context.carry(new.owner.unknownFields, to: "owner", declaring: ["name"])),
            unknownFields: new.unknownFields)
    }

    /// v2 → v1: a pane's `focusedTabIndex` and `tabs` and the owner's `email` are set aside (version 1 has none).
    @Sendable static func v2ToV1(_ new: WorkspaceV2, _ context: inout MigrationContext) throws -> WorkspaceV1 {
        let path = "projects[].panes[]"
        return WorkspaceV1(
            projects: try new.projects.map { project in
                ProjectV1(
                    id: project.id, name: project.name, layout: project.layout,
                    panes: try project.panes.map { pane in
                        var fields = try context.setAside(
                            pane.focusedTabIndex, as: "focusedTabIndex", in: pane.unknownFields, at: path)
                        fields = try context.setAside(pane.tabs, as: "tabs", in: fields, at: path)
                        return PaneV1(id: pane.id, folder: pane.folder, viewMode: pane.viewMode, unknownFields: fields)
                    },
                    unknownFields: project.unknownFields)
            },
            favorites: new.favorites,
            activeProjectID: new.activeProjectID,
            owner: OwnerV1(
                name: new.owner.name, age: new.owner.age,
                unknownFields: try context.setAside(
                    new.owner.email, as: "email", in: new.owner.unknownFields, at: "owner")),
            unknownFields: new.unknownFields)
    }

    /// The number versions 1 to 3 stored for `mode`; `nil` for a mode they cannot name.
    static func storedNumber(of mode: ViewMode) -> Int? {
        switch mode {
        case .list: 0
        case .icons: 1
        case .columns: 2
        default: nil
        }
    }
}
