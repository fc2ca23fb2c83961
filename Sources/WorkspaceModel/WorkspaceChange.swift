import FoundationEssentials

/// One change of the control API (`/v1/`) at the level of meaning it has there: what the change journal records
/// and a start after a crash replays, possibly in a later release than the one that wrote it.
///
/// A change carries everything it needs to apply the same way twice: the ids of the records it creates and the
/// time of a favorite are chosen before it is applied. Its JSON (the case and argument names, the raw values of
/// layouts and view modes) is stored in journals: never rename a case or a label; add new cases instead.
///
/// The cases larger than an update are `indirect` (boxed), so that a change is the size of an update: a replay holds
/// hundreds of thousands of them at once.
public enum WorkspaceChange: Codable, Sendable, Equatable {
    /// `POST /v1/projects`.
    case createProject(id: WorkspaceID, name: String, layout: Layout)
    /// `PATCH /v1/projects/{id}`: each given field.
    case updateProject(id: WorkspaceID, name: String?, layout: Layout?)
    /// `DELETE /v1/projects/{id}`.
    case deleteProject(id: WorkspaceID)
    /// `PUT /v1/active-project`.
    case setActiveProject(id: WorkspaceID?)
    /// `POST /v1/projects/{id}/panes`.
    indirect case createPane(id: WorkspaceID, projectID: WorkspaceID, folder: String, viewMode: ViewMode)
    /// `PATCH /v1/panes/{id}`: each given field.
    case updatePane(id: WorkspaceID, folder: String?, viewMode: ViewMode?)
    /// `DELETE /v1/panes/{id}`.
    case deletePane(id: WorkspaceID)
    /// `POST /v1/panes/{id}/tabs`.
    indirect case createTab(id: WorkspaceID, paneID: WorkspaceID, folder: String)
    /// `DELETE /v1/tabs/{id}`.
    case deleteTab(id: WorkspaceID)
    /// `POST /v1/tabs/{id}/focus`.
    case focusTab(id: WorkspaceID)
    /// `POST /v1/favorites`.
    indirect case addFavorite(id: WorkspaceID, name: String, path: String, createdAt: Date)
    /// `DELETE /v1/favorites/{id}`.
    case deleteFavorite(id: WorkspaceID)
    /// `PATCH /v1/owner`: each given field.
    case updateOwner(alias: String?, email: String?)
    /// `POST /v1/restore`: the whole workspace becomes `workspace`, a state it was in (read from the history), unknown
    /// fields included.
    indirect case restoreWorkspace(workspace: Workspace)
    /// `POST /v1/projects/{id}/restore`: `project` as a past state held it, with its panes and tabs, in place of the
    /// project with its id, or inserted at `index` when it was deleted (``Workspace/restoreProject(_:at:)``).
    indirect case restoreProject(project: Project, index: Int)

    /// Applies the change to `workspace`, validating as the API does.
    ///
    /// - Throws: ``WorkspaceError``; the workspace may then be partly changed only for a change made of several
    ///   steps (``validatesBeforeMutating`` is `false`), which callers apply to a copy.
    public func apply(to workspace: inout Workspace) throws(WorkspaceError) {
        var positions = ProjectPositions()
        try apply(to: &workspace, positions: &positions)
    }

    /// ``apply(to:)``, finding the project an update names through `positions`, which the changes that add, remove
    /// or replace projects make forget what it holds.
    func apply(to workspace: inout Workspace, positions: inout ProjectPositions) throws(WorkspaceError) {
        switch self {
        case .createProject(let id, let name, let layout):
            positions.forget()
            try workspace.createProject(name: name, layout: layout, id: id)
        case .updateProject(let id, let name, let layout):
            let index = try positions.index(of: id, in: workspace.projects)
            if let name { try workspace.renameProject(at: index, to: name) }
            if let layout { try workspace.setLayout(layout, ofProjectAt: index) }
        case .deleteProject(let id):
            positions.forget()
            try workspace.deleteProject(id)
        case .setActiveProject(let id):
            try workspace.setActiveProject(id)
        case .createPane(let id, let projectID, let folder, let viewMode):
            try workspace.addPane(toProject: projectID, folder: folder, viewMode: viewMode, id: id)
        case .updatePane(let id, let folder, let viewMode):
            if let folder { try workspace.setPaneFolder(id, to: folder) }
            if let viewMode { try workspace.setViewMode(viewMode, ofPane: id) }
            if folder == nil, viewMode == nil { _ = try workspace.paneLocation(id) }
        case .deletePane(let id):
            try workspace.removePane(id)
        case .createTab(let id, let paneID, let folder):
            try workspace.openTab(inPane: paneID, folder: folder, id: id)
        case .deleteTab(let id):
            try workspace.closeTab(id)
        case .focusTab(let id):
            try workspace.focusTab(id)
        case .addFavorite(let id, let name, let path, let createdAt):
            try workspace.addFavorite(name: name, path: path, createdAt: createdAt, id: id)
        case .deleteFavorite(let id):
            try workspace.removeFavorite(id)
        case .updateOwner(let alias, let email):
            if let alias { try workspace.setOwnerAlias(alias) }
            if let email { try workspace.setOwnerEmail(email) }
        case .restoreWorkspace(let past):
            positions.forget()
            workspace = past
        case .restoreProject(let project, let index):
            positions.forget()
            try workspace.restoreProject(project, at: index)
        }
    }

    /// Whether the change is one validating step, which throws before modifying anything (so it can be applied in
    /// place); the updates of several fields are not.
    public var validatesBeforeMutating: Bool {
        switch self {
        case .updateProject(_, let name, let layout): name == nil || layout == nil
        case .updatePane(_, let folder, let viewMode): folder == nil || viewMode == nil
        case .updateOwner(let alias, let email): alias == nil || email == nil
        default: true
        }
    }
}

extension WorkspaceChange {
    /// Applies `changes`, which it takes, to `workspace` in place, in order: the position of the first that is `nil`
    /// or does not apply, with its error (`nil` for a missing change), or `nil` when all did. What a start's replay
    /// of the change journal and a read of the past run (StateStore's `StateChange.applyInPlace`, which this is for
    /// the workspace): the projects the updates name are found through one ``ProjectPositions`` for them all, so
    /// that a replay of many updates in a large workspace does not scan its projects for each.
    public static func applyInPlace(
        _ changes: consuming [WorkspaceChange?], to workspace: inout Workspace
    ) -> (position: Int, error: WorkspaceError?)? {
        var memo: Any?
        return applyInPlace(changes, to: &workspace, memo: &memo)
    }

    /// ``applyInPlace(_:to:)`` for one run of a replay that applies several to the same workspace: the
    /// ``ProjectPositions`` the run before left in `memo` go on, so that a replay applied in chunks builds its table
    /// of positions once, not once per chunk (each chunk's scans until then cost as much as the table).
    public static func applyInPlace(
        _ changes: consuming [WorkspaceChange?], to workspace: inout Workspace, memo: inout Any?
    ) -> (position: Int, error: WorkspaceError?)? {
        // Each change is moved out of the array it owns, not copied: a copy costs its strings' reference counts.
        var changes = changes
        var positions = memo as? ProjectPositions ?? ProjectPositions()
        // Dropped from the memo while in use, so that the table is not shared (a copy) when it is changed.
        memo = nil
        defer { memo = positions }
        return changes.withUnsafeMutableBufferPointer { buffer in
            for position in buffer.indices {
                guard let change = buffer[position].take() else { return (position, nil) }
                do throws(WorkspaceError) {
                    try change.apply(to: &workspace, positions: &positions)
                } catch {
                    return (position, error)
                }
            }
            return nil
        }
    }
}
