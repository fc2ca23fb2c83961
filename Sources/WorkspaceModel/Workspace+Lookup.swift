/// Finding records by id. Ids match whatever the letter case of their text.
extension Workspace {
    /// The project with `id`, if any.
    public func project(_ id: WorkspaceID) -> Project? {
        projects.first { $0.id == id }
    }

    /// The pane with `id` in any project, if any.
    public func pane(_ id: WorkspaceID) -> Pane? {
        (try? paneLocation(id)).map { projects[$0.project].panes[$0.pane] }
    }

    /// The tab with `id` in any pane, if any.
    public func tab(_ id: WorkspaceID) -> Tab? {
        (try? tabLocation(id)).map { projects[$0.project].panes[$0.pane].tabs[$0.tab] }
    }

    /// The favorite with `id`, if any.
    public func favorite(_ id: WorkspaceID) -> Favorite? {
        favorites.first { $0.id == id }
    }

    /// Every id in use, by kind.
    var idsByKind: [RecordKind: Set<WorkspaceID>] {
        let panes = projects.flatMap(\.panes)
        return [
            .project: Set(projects.map(\.id)),
            .pane: Set(panes.map(\.id)),
            .tab: Set(panes.flatMap(\.tabs).map(\.id)),
            .favorite: Set(favorites.map(\.id)),
        ]
    }

    func projectIndex(_ id: WorkspaceID) throws(WorkspaceError) -> Int {
        guard let index = projects.firstIndex(where: { $0.id == id }) else {
            throw .notFound(kind: .project, id: id)
        }
        return index
    }

    func paneLocation(_ id: WorkspaceID) throws(WorkspaceError) -> (project: Int, pane: Int) {
        for project in projects.indices {
            if let pane = projects[project].panes.firstIndex(where: { $0.id == id }) {
                return (project, pane)
            }
        }
        throw .notFound(kind: .pane, id: id)
    }

    func tabLocation(_ id: WorkspaceID) throws(WorkspaceError) -> (project: Int, pane: Int, tab: Int) {
        for project in projects.indices {
            for pane in projects[project].panes.indices {
                if let tab = projects[project].panes[pane].tabs.firstIndex(where: { $0.id == id }) {
                    return (project, pane, tab)
                }
            }
        }
        throw .notFound(kind: .tab, id: id)
    }

    func favoriteIndex(_ id: WorkspaceID) throws(WorkspaceError) -> Int {
        guard let index = favorites.firstIndex(where: { $0.id == id }) else {
            throw .notFound(kind: .favorite, id: id)
        }
        return index
    }

    /// The id for a new record of `kind`: `requested` once checked unused, or a fresh random one. A fresh id is not
    /// checked: it carries 122 random bits from the system generator, so a collision is not a case to handle, and
    /// skipping the scan keeps an insert O(1) however large the workspace grows.
    func newID(_ requested: WorkspaceID?, kind: RecordKind) throws(WorkspaceError) -> WorkspaceID {
        guard let requested else { return WorkspaceID() }
        try requireUnused(requested, kind: kind)
        return requested
    }

    /// Throws when `id` is already used by a record of `kind`.
    /// Scans only the records of `kind`, without building sets: a change costs no allocation per record.
    func requireUnused(_ id: WorkspaceID, kind: RecordKind) throws(WorkspaceError) {
        let used: Bool
        switch kind {
        case .project: used = projects.contains { $0.id == id }
        case .pane: used = projects.contains { $0.panes.contains { $0.id == id } }
        case .tab: used = projects.contains { $0.panes.contains { $0.tabs.contains { $0.id == id } } }
        case .favorite: used = favorites.contains { $0.id == id }
        }
        if used { throw .alreadyExists(kind: kind, id: id) }
    }
}
