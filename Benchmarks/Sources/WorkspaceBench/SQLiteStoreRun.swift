import Foundation
import GRDB
import WorkspaceModel

/// The SQLite side of `WorkspaceBench peer`: the same workspace in a database through GRDB
/// (``SQLiteWorkspace``: a table per record kind, WAL, `synchronous = FULL`).
struct SQLiteStoreRun {
    /// The database file.
    let path: String

    /// Seconds to load everything: open the database (its migrations checked), then read every table into the
    /// real model (``SQLiteWorkspace/load(from:)``). The connection and the model are released after the clock
    /// stops, as a program keeps them (closing checkpoints the WAL and syncs the database file).
    func load() throws -> Double {
        var kept: (DatabaseQueue, Workspace)?
        let seconds = try timed {
            let queue = try SQLiteWorkspace.open(path)
            kept = (queue, try SQLiteWorkspace.load(from: queue))
        }
        withExtendedLifetime(kept) {}
        return seconds
    }

    /// Seconds to save everything: the workspace, loaded from this database first (not timed), inserted in one
    /// durable transaction into a new database at `target` whose schema was created first (not timed either).
    func save(into target: String) throws -> Double {
        let workspace = try SQLiteWorkspace.load(from: try SQLiteWorkspace.open(path))
        let empty = try SQLiteWorkspace.open(target)
        return try timed { try SQLiteWorkspace.insert(workspace, into: empty) }
    }

    /// Seconds for ``PeerBenchmark/clients`` threads to make ``PeerBenchmark/changesPerClient`` renames each, each
    /// its own committed transaction on the one connection (SQLite writes one transaction at a time).
    func concurrentChanges(projectID: String) throws -> Double {
        let queue = try SQLiteWorkspace.open(path)
        return try timed {
            try PeerBenchmark.onClientThreads { client in
                for index in 0..<PeerBenchmark.changesPerClient {
                    try SQLiteWorkspace.renameProject(projectID, to: "c\(client)-\(index)", in: queue)
                }
            }
        }
    }

    /// Seconds for one durable single-record change: one `UPDATE` of the project `projectID`'s name in its own
    /// transaction, committed. Opening the database is not timed.
    func change(projectID: String) throws -> Double {
        let queue = try SQLiteWorkspace.open(path)
        return try timed { try SQLiteWorkspace.renameProject(projectID, to: PeerBenchmark.newName, in: queue) }
    }
}
