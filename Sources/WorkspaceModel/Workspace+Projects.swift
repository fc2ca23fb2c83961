/// Creating, renaming, arranging and deleting projects, and choosing the active one.
extension Workspace {
    /// Adds a project with no panes at the end and returns it.
    ///
    /// - Parameters:
    ///   - name: 1 to 256 characters, no control characters.
    ///   - layout: A layout this release knows.
    ///   - id: The new project's id, or `nil` for a fresh random one (122 random bits, not checked against
    ///     existing ids). A given id must not name an existing project.
    /// - Throws: ``WorkspaceError/invalid(field:reason:)`` or ``WorkspaceError/alreadyExists(kind:id:)``.
    @discardableResult
    public mutating func createProject(
        name: String, layout: Layout, id: WorkspaceID? = nil
    ) throws(WorkspaceError) -> Project {
        try Validation.name(name, field: "name")
        try Validation.known(layout, field: "layout")
        let id = try newID(id, kind: .project)
        let project = Project(id: id, name: name, layout: layout)
        projects.append(project)
        return project
    }

    /// Renames the project `id`.
    ///
    /// - Throws: ``WorkspaceError/notFound(kind:id:)`` or ``WorkspaceError/invalid(field:reason:)``.
    public mutating func renameProject(_ id: WorkspaceID, to name: String) throws(WorkspaceError) {
        try renameProject(at: try projectIndex(id), to: name)
    }

    /// Renames the project at `index` (a valid position).
    ///
    /// - Throws: ``WorkspaceError/invalid(field:reason:)``.
    mutating func renameProject(at index: Int, to name: String) throws(WorkspaceError) {
        try Validation.name(name, field: "name")
        projects[index].name = name
    }

    /// Sets the layout of the project `id` to a layout this release knows.
    ///
    /// - Throws: ``WorkspaceError/notFound(kind:id:)`` or ``WorkspaceError/invalid(field:reason:)``.
    public mutating func setLayout(_ layout: Layout, ofProject id: WorkspaceID) throws(WorkspaceError) {
        try setLayout(layout, ofProjectAt: try projectIndex(id))
    }

    /// Sets the layout of the project at `index` (a valid position) to a layout this release knows.
    ///
    /// - Throws: ``WorkspaceError/invalid(field:reason:)``.
    mutating func setLayout(_ layout: Layout, ofProjectAt index: Int) throws(WorkspaceError) {
        try Validation.known(layout, field: "layout")
        projects[index].layout = layout
    }

    /// Deletes the project `id` with its panes and tabs; when it was the active project, none is active.
    ///
    /// - Throws: ``WorkspaceError/notFound(kind:id:)``.
    public mutating func deleteProject(_ id: WorkspaceID) throws(WorkspaceError) {
        let index = try projectIndex(id)
        projects.remove(at: index)
        if activeProjectID == id { activeProjectID = nil }
    }

    /// Makes the project `id` the active one, or none with `nil`.
    ///
    /// - Throws: ``WorkspaceError/notFound(kind:id:)`` when `id` names no project.
    public mutating func setActiveProject(_ id: WorkspaceID?) throws(WorkspaceError) {
        guard let id else {
            activeProjectID = nil
            return
        }
        activeProjectID = projects[try projectIndex(id)].id
    }
}
