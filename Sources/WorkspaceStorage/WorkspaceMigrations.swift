import FoundationEssentials
import StateStore
import WorkspaceModel

/// The shipped migration steps. A shipped step is never edited in what it writes from a file its release wrote: a
/// change to the format is a new version with a new step, a new fixture and a new test. (Carrying unknown fields
/// through `context.carry` changed no step's output: a captured field under a declared key was never written.
/// Taking back what a rollback set aside changes only files a rollback wrote.) The reverse steps are in
/// WorkspaceMigrations+Down.swift.
enum WorkspaceMigrations {
    /// v1 → v2: panes gain `focusedTabIndex` (0) and `tabs` (empty); the owner gains `email` (""). Values a
    /// rollback to version 1 set aside under those keys are taken back (``v2ToV1(_:_:)``); any other unknown field
    /// of a version 1 record under one of those keys is dropped and reported
    /// (``MigrationContext/carry(_:to:declaring:)``).
    /// Takes the old projects apart as it goes (``MigrationStep/init(from:_:to:consuming:revert:)``): each old
    /// project's panes are freed once converted.
    @Sendable static func v1ToV2(_ old: inout WorkspaceV1, _ context: inout MigrationContext) -> WorkspaceV2 {
        var owner = old.owner.unknownFields
        let email = context.takeBack(String.self, "email", from: &owner, at: "owner")
        if email == nil { context.defaulted("owner.email") }
        // Counted here and recorded once below: a call per pane built the field path anew each time, the
        // largest cost of this step on a file of 80,000 panes.
        var focusedDefaulted = 0
        var tabsDefaulted = 0
        let path = "projects[].panes[]"
        let migrated = WorkspaceV2(
            projects: old.projects.takingEach { project in
                ProjectV2(
                    id: project.id, name: project.name, layout: project.layout,
                    panes: project.panes.map { pane in
                        var fields = pane.unknownFields
                        let focused = context.takeBack(Int.self, "focusedTabIndex", from: &fields, at: path)
                        let tabs = context.takeBack([TabV2].self, "tabs", from: &fields, at: path)
                        if focused == nil { focusedDefaulted += 1 }
                        if tabs == nil { tabsDefaulted += 1 }
                        return PaneV2(
                            id: pane.id, folder: pane.folder, viewMode: pane.viewMode,
                            focusedTabIndex: focused ?? 0, tabs: tabs ?? [],
                            unknownFields: context.carry(fields, to: path, declaring: ["focusedTabIndex", "tabs"]))
                    },
                    unknownFields: project.unknownFields)
            },
            favorites: old.favorites,
            activeProjectID: old.activeProjectID,
            owner: OwnerV2(
                name: old.owner.name, age: old.owner.age, email: email ?? "",
                unknownFields: context.carry(owner, to: "owner", declaring: ["email"])),
            unknownFields: old.unknownFields)
        context.defaulted(path + ".focusedTabIndex", count: focusedDefaulted)
        context.defaulted(path + ".tabs", count: tabsDefaulted)
        return migrated
    }

    /// v2 → v3: the owner's `name` becomes `alias`; favorites gain `createdAt`, unknown (`nil`) when migrated
    /// unless a rollback to version 2 set it aside (``v3ToV2(_:_:)``). Another unknown field under one of the new
    /// keys is dropped and reported.
    @Sendable static func v2ToV3(_ old: inout WorkspaceV2, _ context: inout MigrationContext) -> WorkspaceV3 {
        WorkspaceV3(
            projects: old.projects,
            favorites: old.favorites.takingEach { favorite in
                var fields = favorite.unknownFields
                let createdAt = context.takeBack(Date.self, "createdAt", from: &fields, at: "favorites[]")
                return FavoriteV3(
                    id: favorite.id, name: favorite.name, path: favorite.path, createdAt: createdAt,
                    unknownFields: context.carry(fields, to: "favorites[]", declaring: ["createdAt"]))
            },
            activeProjectID: old.activeProjectID,
            owner: OwnerV3(
                alias: old.owner.name, age: old.owner.age, email: old.owner.email,
                unknownFields: context.carry(old.owner.unknownFields, to: "owner", declaring: ["alias"])),
            unknownFields: old.unknownFields)
    }

    /// v3 → v4: the owner's `age` is dropped; pane `viewMode` 0/1/2 becomes "list"/"icons"/"columns", and any
    /// other number becomes "list" with a warning naming the pane. A mode version 3 cannot name, set aside by a
    /// rollback (``v4ToV3(_:_:)``), is taken back while the pane still shows the number it was written as.
    /// Takes the old projects apart as it goes, as ``v1ToV2(_:_:)`` does.
    @Sendable static func v3ToV4(_ old: inout WorkspaceV3, _ context: inout MigrationContext) -> Workspace {
        // The favorites first, so that their old storage is gone before the projects, the bulk, are converted.
        let favorites = old.favorites.takingEach { favorite in
            Favorite(
                id: favorite.id, name: favorite.name, path: favorite.path, createdAt: favorite.createdAt,
                unknownFields: favorite.unknownFields)
        }
        return Workspace(
            projects: old.projects.takingEach { project in
                Project(
                    id: project.id, name: project.name, layout: project.layout,
                    panes: project.panes.map { pane in
                        var fields = pane.unknownFields
                        let setAside = context.takeBack(
                            String.self, viewModeKey, from: &fields, at: "projects[].panes[]")
                        let mode =
                            setAside.flatMap { pane.viewMode == unnamedViewModeNumber ? ViewMode(rawValue: $0) : nil }
                        return Pane(
                            id: pane.id, folder: pane.folder,
                            viewMode: mode ?? viewMode(of: pane, in: project, context: &context),
                            focusedTabIndex: pane.focusedTabIndex,
                            tabs: pane.tabs.map { Tab(id: $0.id, folder: $0.folder, unknownFields: $0.unknownFields) },
                            unknownFields: fields)
                    },
                    unknownFields: project.unknownFields)
            },
            favorites: favorites,
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

extension Array {
    /// The elements converted by `transform`, in order, each moved out of the array before it is converted, so
    /// that what `transform` does not keep of it is freed at once instead of when the whole array goes (a
    /// migration step's peak memory), and the storage it leaves empty given back as it goes (``VacatedStorage``).
    /// The array is left empty, its storage freed too (part-emptied if `transform` throws).
    mutating func takingEach<Converted>(_ transform: (Element) throws -> Converted) rethrows -> [Converted] {
        var converted: [Converted] = []
        converted.reserveCapacity(count)
        reverse()
        var vacated = VacatedStorage(of: &self)
        while let element = popLast() {
            converted.append(try transform(element))
            vacated?.release(&self)
        }
        // `popLast` keeps the capacity: without this the emptied storage stays until the step returns.
        self = []
        return converted
    }
}
