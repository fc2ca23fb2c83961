import WorkspaceAPI
import WorkspaceModel

/// Which changes of the history touched a record or what it holds, for `GET /v1/history?record=ID`: a project's
/// changes with those of its panes and tabs, a pane's with those of its tabs, a tab's or a favorite's own.
///
/// A change names only the record it acts on (a tab's closing names the tab, not its pane or project), so the
/// filter follows the changes in order, oldest first, as the history walks them: it starts from the records the
/// state held at the walk's start and adds each pane or tab created in (or restored with) one it follows. Panes
/// and tabs never move to another project or pane, so a start taken earlier than the walk's only adds ids that
/// belong to the record anyway. A restore of the whole workspace is always kept: it may have changed any record.
struct HistoryRecordFilter {
    /// The record asked for and the panes and tabs it holds or held.
    private(set) var followed: Set<WorkspaceID>

    /// A filter for `record`, starting from what it holds in `workspace` (the state at the walk's start).
    init(record: WorkspaceID, in workspace: Workspace) {
        followed = [record]
        follow(within: workspace)
    }

    /// Whether `change` touched the record or what it holds; follows what it adds to them.
    mutating func keeps(_ change: WorkspaceChange) -> Bool {
        switch change {
        case .createPane(let id, let parent, _, _) where followed.contains(parent),
            .createTab(let id, let parent, _) where followed.contains(parent):
            followed.insert(id)
            return true
        case .restoreProject(let project, _):
            let held = [project.id] + project.panes.flatMap { [$0.id] + $0.tabs.map(\.id) }
            guard held.contains(where: followed.contains) else { return false }
            follow(within: Workspace(projects: [project]))
            return true
        case .restoreWorkspace(let workspace):
            follow(within: workspace)
            return true
        default:
            return change.recordIDs.contains(where: followed.contains)
        }
    }

    /// Adds the panes and tabs `workspace` holds in a followed project, and the tabs it holds in a followed pane.
    private mutating func follow(within workspace: Workspace) {
        for project in workspace.projects {
            let wholeProject = followed.contains(project.id)
            for pane in project.panes where wholeProject || followed.contains(pane.id) {
                followed.insert(pane.id)
                followed.formUnion(pane.tabs.map(\.id))
            }
        }
    }
}
