extension APIRoute {
    /// The name a `change` event of `GET /v1/events` gives this operation (`project.create`), or `nil` for a
    /// route that changes no workspace record (reads, flush, tokens).
    public var changeOperation: String? { Self.changeOperations[self] }

    /// Every change of the workspace and its event name: `<record>.<create|update|delete>`, plus `tab.focus` and
    /// `active-project.set`.
    public static let changeOperations: [APIRoute: String] = [
        createProject: "project.create", updateProject: "project.update", deleteProject: "project.delete",
        createPane: "pane.create", updatePane: "pane.update", deletePane: "pane.delete",
        createTab: "tab.create", deleteTab: "tab.delete", focusTab: "tab.focus",
        addFavorite: "favorite.create", deleteFavorite: "favorite.delete",
        setActiveProject: "active-project.set", updateOwner: "owner.update",
    ]
}
