/// Adding and removing panes and changing what they show. Panes are found by id across every project.
extension Workspace {
    /// Adds a pane with no tabs at the end of the project `projectID` and returns it.
    ///
    /// - Parameters:
    ///   - projectID: The project to add to.
    ///   - folder: An absolute path without NUL, at most 4096 bytes.
    ///   - viewMode: A view mode this release knows.
    ///   - id: The new pane's id, or `nil` for a fresh random one (122 random bits, not checked against
    ///     existing ids). A given id must not name an existing pane.
    /// - Throws: ``WorkspaceError/notFound(kind:id:)``, ``WorkspaceError/invalid(field:reason:)`` or
    ///   ``WorkspaceError/alreadyExists(kind:id:)``.
    @discardableResult
    public mutating func addPane(
        toProject projectID: WorkspaceID, folder: String, viewMode: ViewMode = .list, id: WorkspaceID? = nil
    ) throws(WorkspaceError) -> Pane {
        let index = try projectIndex(projectID)
        try Validation.path(folder, field: "folder")
        try Validation.known(viewMode, field: "viewMode")
        let id = try newID(id, kind: .pane)
        let pane = Pane(id: id, folder: folder, viewMode: viewMode)
        projects[index].panes.append(pane)
        return pane
    }

    /// Removes the pane `id` with its tabs.
    ///
    /// - Throws: ``WorkspaceError/notFound(kind:id:)``.
    public mutating func removePane(_ id: WorkspaceID) throws(WorkspaceError) {
        let location = try paneLocation(id)
        projects[location.project].panes.remove(at: location.pane)
    }

    /// Points the pane `id` at another folder.
    ///
    /// - Throws: ``WorkspaceError/notFound(kind:id:)`` or ``WorkspaceError/invalid(field:reason:)``.
    public mutating func setPaneFolder(_ id: WorkspaceID, to folder: String) throws(WorkspaceError) {
        let location = try paneLocation(id)
        try Validation.path(folder, field: "folder")
        projects[location.project].panes[location.pane].folder = folder
    }

    /// Sets the view mode of the pane `id` to a mode this release knows.
    ///
    /// - Throws: ``WorkspaceError/notFound(kind:id:)`` or ``WorkspaceError/invalid(field:reason:)``.
    public mutating func setViewMode(_ viewMode: ViewMode, ofPane id: WorkspaceID) throws(WorkspaceError) {
        let location = try paneLocation(id)
        try Validation.known(viewMode, field: "viewMode")
        projects[location.project].panes[location.pane].viewMode = viewMode
    }
}
