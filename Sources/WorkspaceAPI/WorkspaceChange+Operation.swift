import WorkspaceModel

/// What the control API says of a change it made: its operation and the records it touched, for the history
/// (`GET /v1/history`) and the `change` events replayed from it, named as the live events name them.
extension WorkspaceChange {
    /// The operation that makes this change.
    public var route: APIRoute {
        switch self {
        case .createProject: .createProject
        case .updateProject: .updateProject
        case .deleteProject: .deleteProject
        case .setActiveProject: .setActiveProject
        case .createPane: .createPane
        case .updatePane: .updatePane
        case .deletePane: .deletePane
        case .createTab: .createTab
        case .deleteTab: .deleteTab
        case .focusTab: .focusTab
        case .addFavorite: .addFavorite
        case .deleteFavorite: .deleteFavorite
        case .updateOwner: .updateOwner
        case .restoreWorkspace: .restore
        case .restoreProject: .restoreProject
        }
    }

    /// The name its `change` event gives it (`project.create`): ``APIRoute/changeOperation`` of its ``route``.
    public var operation: String { route.changeOperation ?? "change" }

    /// The ids of the records it touched: the record it names first (created, changed, removed or restored), then
    /// the one it was made in (a new pane's project, a new tab's pane). Empty for an owner update and a restore of
    /// the whole workspace (which may touch every record).
    public var recordIDs: [WorkspaceID] {
        switch self {
        case .createProject(let id, _, _), .updateProject(let id, _, _), .deleteProject(let id),
            .updatePane(let id, _, _), .deletePane(let id), .deleteTab(let id), .focusTab(let id),
            .addFavorite(let id, _, _, _), .deleteFavorite(let id):
            [id]
        case .setActiveProject(let id): id.map { [$0] } ?? []
        case .createPane(let id, let projectID, _, _): [id, projectID]
        case .createTab(let id, let paneID, _): [id, paneID]
        case .updateOwner, .restoreWorkspace: []
        case .restoreProject(let project, _): [project.id]
        }
    }

    /// The record its `change` event names (`id`): the first of ``recordIDs``, except for `active-project.set`,
    /// whose live event has always named none.
    public var eventRecordID: WorkspaceID? {
        if case .setActiveProject = self { return nil }
        return recordIDs.first
    }
}
