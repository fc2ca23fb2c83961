/// Going back in time: the whole workspace, or one project with its panes and tabs, as a past state held them.
extension Workspace {
    /// Puts back `project` as a past state held it, with its panes and tabs: in place of the project with the same
    /// id, which keeps its position, or, when there is none (it was deleted since), inserted at `index`, clamped to
    /// the projects (`0` at the front, at the end past the last one).
    ///
    /// The project is taken as it was, without the checks of a new record (a name or a layout an older release
    /// accepted stays as it is). The active project stays what it was: a restore removes no project.
    ///
    /// - Throws: ``WorkspaceError/conflict(kind:id:usedBy:)`` when another project holds one of its pane or tab
    ///   ids now; nothing changed then.
    public mutating func restoreProject(_ project: Project, at index: Int) throws(WorkspaceError) {
        try requireOwnIDs(of: project)
        if let existing = projects.firstIndex(where: { $0.id == project.id }) {
            projects[existing] = project
        } else {
            projects.insert(project, at: min(max(index, 0), projects.count))
        }
    }

    /// Throws when a project other than `project` holds one of its pane or tab ids.
    private func requireOwnIDs(of project: Project) throws(WorkspaceError) {
        let paneIDs = Set(project.panes.map(\.id))
        let tabIDs = Set(project.panes.flatMap(\.tabs).map(\.id))
        for other in projects where other.id != project.id {
            for pane in other.panes {
                if paneIDs.contains(pane.id) { throw .conflict(kind: .pane, id: pane.id, usedBy: other.id) }
                for tab in pane.tabs where tabIDs.contains(tab.id) {
                    throw .conflict(kind: .tab, id: tab.id, usedBy: other.id)
                }
            }
        }
    }
}
