import Foundation
import GRDB
import StateStore
import WorkspaceModel

/// Reading the whole database back into the real model.
extension SQLiteWorkspace {
    /// Every table read into the real model's types (``WorkspaceModel/Workspace`` and its records, with ids parsed
    /// as ``WorkspaceModel/WorkspaceID`` and no unknown fields), in one read transaction: tabs grouped by pane and
    /// panes by project through the `(parent, position)` indexes, then the projects, favorites and owner in order.
    static func load(from queue: DatabaseQueue) throws -> Workspace {
        try queue.read { db in
            var tabsByPane: [Int64: [Tab]] = [:]
            let tabs = try Row.fetchCursor(db, sql: "SELECT paneId, uuid, folder FROM tab ORDER BY paneId, position")
            while let row = try tabs.next() {
                let tab = Tab(id: try id(row[1]), folder: row[2], unknownFields: UnknownFields())
                tabsByPane[row[0], default: []].append(tab)
            }
            var panesByProject: [Int64: [Pane]] = [:]
            let panes = try Row.fetchCursor(
                db,
                sql: """
                    SELECT projectId, id, uuid, folder, viewMode, focusedTabIndex FROM pane
                    ORDER BY projectId, position
                    """)
            while let row = try panes.next() {
                let pane = Pane(
                    id: try id(row[2]), folder: row[3], viewMode: ViewMode(rawValue: row[4]), focusedTabIndex: row[5],
                    tabs: tabsByPane.removeValue(forKey: row[1]) ?? [], unknownFields: UnknownFields())
                panesByProject[row[0], default: []].append(pane)
            }
            var projects: [Project] = []
            var activeProjectID: WorkspaceID?
            let activeRow = try Int64.fetchOne(db, sql: "SELECT activeProjectId FROM owner WHERE id = 1")
            let projectRows = try Row.fetchCursor(
                db, sql: "SELECT id, uuid, name, layout FROM project ORDER BY position")
            while let row = try projectRows.next() {
                let rowID: Int64 = row[0]
                let project = Project(
                    id: try id(row[1]), name: row[2], layout: Layout(rawValue: row[3]),
                    panes: panesByProject.removeValue(forKey: rowID) ?? [])
                if rowID == activeRow { activeProjectID = project.id }
                projects.append(project)
            }
            var favorites: [Favorite] = []
            let favoriteRows = try Row.fetchCursor(
                db, sql: "SELECT uuid, name, path, createdAt FROM favorite ORDER BY position")
            while let row = try favoriteRows.next() {
                let seconds: Double? = row[3]
                favorites.append(
                    Favorite(
                        id: try id(row[0]), name: row[1], path: row[2],
                        createdAt: seconds.map(Date.init(timeIntervalSince1970:)), unknownFields: UnknownFields()))
            }
            guard let owner = try Row.fetchOne(db, sql: "SELECT alias, email FROM owner WHERE id = 1") else {
                throw BenchError("the database has no owner row")
            }
            return Workspace(
                projects: projects, favorites: favorites, activeProjectID: activeProjectID,
                owner: Owner(alias: owner[0], email: owner[1]))
        }
    }

    /// The id stored as `text`.
    private static func id(_ text: String) throws -> WorkspaceID {
        guard let id = WorkspaceID(text) else { throw BenchError("\"\(text)\" in the database is not a UUID") }
        return id
    }
}
