import StateStore

/// The shipped migration steps. A shipped step is never edited in what it writes: a change to the format is a new
/// version with a new step, a new fixture and a new test. (Carrying unknown fields through `context.carry` changed
/// no step's output: a captured field under a declared key was never written.)
enum WorkspaceMigrations {
    /// v1 → v2: panes gain `focusedTabIndex` (0) and `tabs` (empty); the owner gains `email` (""). An unknown
    /// field of a version 1 record under one of those keys is dropped and reported (``MigrationContext/carry(_:to:declaring:)``).
    @Sendable static func v1ToV2(_ old: WorkspaceV1, _ context: inout MigrationContext) -> WorkspaceV2 {
        let paneCount = old.projects.reduce(0) { $0 + $1.panes.count }
        context.defaulted("projects[].panes[].focusedTabIndex", count: paneCount)
        context.defaulted("projects[].panes[].tabs", count: paneCount)
        context.defaulted("owner.email")
        return WorkspaceV2(
            projects: old.projects.map { project in
                ProjectV2(
                    id: project.id, name: project.name, layout: project.layout,
                    panes: project.panes.map { pane in
                        PaneV2(
                            id: pane.id, folder: pane.folder, viewMode: pane.viewMode, focusedTabIndex: 0, tabs: [],
                            unknownFields: context.carry(
                                pane.unknownFields, to: "projects[].panes[]", declaring: ["focusedTabIndex", "tabs"]))
                    },
                    unknownFields: project.unknownFields)
            },
            favorites: old.favorites,
            activeProjectID: old.activeProjectID,
            owner: OwnerV2(
                name: old.owner.name, age: old.owner.age, email: "",
                unknownFields: context.carry(old.owner.unknownFields, to: "owner", declaring: ["email"])),
            unknownFields: old.unknownFields)
    }

    /// v2 → v3: the owner's `name` becomes `alias`; favorites gain `createdAt`, unknown (`nil`) when migrated.
    /// An unknown field under one of the new keys is dropped and reported.
    @Sendable static func v2ToV3(_ old: WorkspaceV2, _ context: inout MigrationContext) -> WorkspaceV3 {
        WorkspaceV3(
            projects: old.projects,
            favorites: old.favorites.map { favorite in
                FavoriteV3(
                    id: favorite.id, name: favorite.name, path: favorite.path, createdAt: nil,
                    unknownFields: context.carry(favorite.unknownFields, to: "favorites[]", declaring: ["createdAt"]))
            },
            activeProjectID: old.activeProjectID,
            owner: OwnerV3(
                alias: old.owner.name, age: old.owner.age, email: old.owner.email,
                unknownFields: context.carry(old.owner.unknownFields, to: "owner", declaring: ["alias"])),
            unknownFields: old.unknownFields)
    }

    /// v3 → v4: the owner's `age` is dropped; pane `viewMode` 0/1/2 becomes "list"/"icons"/"columns", and any
    /// other number becomes "list" with a warning naming the pane.
    @Sendable static func v3ToV4(_ old: WorkspaceV3, _ context: inout MigrationContext) -> Workspace {
        Workspace(
            projects: old.projects.map { project in
                Project(
                    id: project.id, name: project.name, layout: project.layout,
                    panes: project.panes.map { pane in
                        Pane(
                            id: pane.id, folder: pane.folder,
                            viewMode: viewMode(of: pane, in: project, context: &context),
                            focusedTabIndex: pane.focusedTabIndex,
                            tabs: pane.tabs.map { Tab(id: $0.id, folder: $0.folder, unknownFields: $0.unknownFields) },
                            unknownFields: pane.unknownFields)
                    },
                    unknownFields: project.unknownFields)
            },
            favorites: old.favorites.map { favorite in
                Favorite(
                    id: favorite.id, name: favorite.name, path: favorite.path, createdAt: favorite.createdAt,
                    unknownFields: favorite.unknownFields)
            },
            activeProjectID: old.activeProjectID,
            owner: Owner(alias: old.owner.alias, email: old.owner.email, unknownFields: old.owner.unknownFields),
            unknownFields: old.unknownFields)
    }

    private static func viewMode(
        of pane: PaneV2, in project: ProjectV2, context: inout MigrationContext
    ) -> ViewMode {
        if let mode = ViewMode(storedNumber: pane.viewMode) { return mode }
        context.warn(
            "pane \(pane.id) in project \(project.id): viewMode \(pane.viewMode) is unknown; mapped to \"list\"")
        return .list
    }
}
