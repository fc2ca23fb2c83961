/// Where projects are in ``Workspace/projects``, for many changes applied in a row (a start's replay, a read of
/// the past): found by scanning, as a single change finds them, until the scans have cost about what a table of
/// every project's position costs to build, then by that table.
///
/// A replay of renames of one project among 28,694 (a 50 MB workspace) scanned 14,000 projects a change, 820 ms
/// for 163,839 changes; the table answers each in one lookup. Building it costs about as much as scanning
/// ``scansPerEntry`` projects per project, so it is built only once the scans since it was last dropped have cost
/// that much: never more than twice the scans, and nothing for the short scans of a small workspace.
///
/// The table is only right while no project moves: only changes that leave every project in its place may be
/// applied while it is held, and any other calls ``forget()``.
struct ProjectPositions {
    /// The ratio of a table entry's cost (hashing a 16-byte id, inserting) to a scanned project's (comparing one).
    static let scansPerEntry = 128
    /// The workspaces this small are always scanned.
    static let smallestTabled = 64

    /// Each id's first position, once built.
    private var table: [WorkspaceID: Int]?
    /// Projects compared since the table was last dropped.
    private var scanned = 0

    /// The position of the first project with `id` in `projects`, as ``Workspace/projectIndex(_:)`` finds it.
    ///
    /// - Throws: ``WorkspaceError/notFound(kind:id:)``.
    mutating func index(of id: WorkspaceID, in projects: [Project]) throws(WorkspaceError) -> Int {
        if let table {
            guard let index = table[id] else { throw .notFound(kind: .project, id: id) }
            return index
        }
        let found = projects.firstIndex { $0.id == id }
        scanned += (found ?? projects.count) + 1
        if projects.count >= Self.smallestTabled, scanned >= Self.scansPerEntry * projects.count {
            var built: [WorkspaceID: Int] = [:]
            built.reserveCapacity(projects.count)
            for index in projects.indices where built[projects[index].id] == nil {
                built[projects[index].id] = index
            }
            table = built
        }
        guard let found else { throw .notFound(kind: .project, id: id) }
        return found
    }

    /// Whether the table is built (for the tests).
    var holdsTable: Bool { table != nil }

    /// Drops the table: a change is about to add, remove, move or replace projects.
    mutating func forget() {
        table = nil
        scanned = 0
    }
}
