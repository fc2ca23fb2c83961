import Foundation
import GRDB
import WorkspaceModel

/// Writing the whole workspace into the database, and the single-record change.
extension SQLiteWorkspace {
    /// Inserts every record of `workspace` in one transaction (committed, so durable, when this returns), with one
    /// prepared statement per table. The tables must be empty.
    static func insert(_ workspace: Workspace, into queue: DatabaseQueue) throws {
        try queue.write { db in
            let project = try db.cachedStatement(
                sql: "INSERT INTO project (uuid, position, name, layout) VALUES (?, ?, ?, ?)")
            let pane = try db.cachedStatement(
                sql: """
                    INSERT INTO pane (uuid, projectId, position, folder, viewMode, focusedTabIndex)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """)
            let tab = try db.cachedStatement(
                sql: "INSERT INTO tab (uuid, paneId, position, folder) VALUES (?, ?, ?, ?)")
            let favorite = try db.cachedStatement(
                sql: "INSERT INTO favorite (uuid, position, name, path, createdAt) VALUES (?, ?, ?, ?, ?)")
            var activeProjectRow: Int64?
            for (projectPosition, record) in workspace.projects.enumerated() {
                try project.execute(arguments: [record.id.text, projectPosition, record.name, record.layout.rawValue])
                let projectRow = db.lastInsertedRowID
                if record.id == workspace.activeProjectID { activeProjectRow = projectRow }
                for (panePosition, paneRecord) in record.panes.enumerated() {
                    try pane.execute(arguments: [
                        paneRecord.id.text, projectRow, panePosition, paneRecord.folder, paneRecord.viewMode.rawValue,
                        paneRecord.focusedTabIndex,
                    ])
                    let paneRow = db.lastInsertedRowID
                    for (tabPosition, tabRecord) in paneRecord.tabs.enumerated() {
                        try tab.execute(arguments: [tabRecord.id.text, paneRow, tabPosition, tabRecord.folder])
                    }
                }
            }
            for (position, record) in workspace.favorites.enumerated() {
                try favorite.execute(arguments: [
                    record.id.text, position, record.name, record.path, record.createdAt?.timeIntervalSince1970,
                ])
            }
            try db.execute(
                sql: "INSERT INTO owner (id, alias, email, activeProjectId) VALUES (1, ?, ?, ?)",
                arguments: [workspace.owner.alias, workspace.owner.email, activeProjectRow])
        }
    }

    /// Renames the project `id` in one transaction, committed (durable) when this returns.
    static func renameProject(_ id: String, to name: String, in queue: DatabaseQueue) throws {
        try queue.write { db in
            try db.execute(sql: "UPDATE project SET name = ? WHERE uuid = ?", arguments: [name, id])
            guard db.changesCount == 1 else { throw BenchError("no project \(id) in the database") }
        }
    }
}
