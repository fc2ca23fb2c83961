import Foundation
import GRDB

/// The workspace kept in SQLite through GRDB, the peer of `workspace.json` in `WorkspaceBench peer`: a table per
/// record kind, as an application that chose a database would lay it out.
///
/// - `project`, `pane`, `tab`, `favorite`: one row per record. Each has an integer primary key (the rowid) for the
///   foreign keys, and the model's id as `uuid`, unique within its kind whatever its letter case (`COLLATE NOCASE`,
///   as ``WorkspaceModel/WorkspaceID`` compares ids), written as the model holds it. The order of the model's
///   arrays is a `position` column, unique within the parent; that unique index also serves the foreign key.
///   Panes and tabs go with their parent (`ON DELETE CASCADE`).
/// - `owner`: the one row of the workspace's root: the owner's alias and e-mail and the active project (`ON DELETE
///   SET NULL`, as deleting the active project leaves none active).
///
/// Keys a newer release wrote (the model's `unknownFields`) have no column: the generated workspace has none, and
/// a database would keep them in a JSON column if at all.
///
/// Durability: WAL with `synchronous = FULL`, set on every connection. In WAL mode, FULL fsyncs the WAL at every
/// commit, so a transaction that returned survives a power loss (NORMAL would sync only at checkpoints, and a
/// commit could be lost, which the JSON store never allows). WAL rather than the rollback journal because it is
/// what an application making many small durable changes uses: one append and one fsync a commit. A commit that
/// grows the WAL past 1,000 pages also checkpoints it into the database file (SQLite's default, kept), inside
/// the same call.
enum SQLiteWorkspace {
    /// The connection settings: WAL, `synchronous = FULL`, foreign keys on (GRDB's default).
    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return configuration
    }

    /// Opens (or creates) the database at `path` and brings its schema up to date, as an application does at start.
    static func open(_ path: String) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try migrator.migrate(queue)
        // GRDB sets `synchronous = NORMAL` when it turns WAL on, after `prepareDatabase`: FULL is set again here,
        // and checked, so that a commit that returns is on the device as the JSON store's durable change is.
        let synchronous = try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            return try Int.fetchOne(db, sql: "PRAGMA synchronous")
        }
        guard synchronous == 2 else {
            let shown = synchronous.map(String.init) ?? "unknown"
            throw BenchError("\(path): PRAGMA synchronous is \(shown), not FULL (2)")
        }
        return queue
    }

    /// The schema, as a GRDB migration.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("workspace v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE project (
                        id INTEGER PRIMARY KEY,
                        uuid TEXT NOT NULL UNIQUE COLLATE NOCASE,
                        position INTEGER NOT NULL UNIQUE,
                        name TEXT NOT NULL,
                        layout TEXT NOT NULL
                    );
                    CREATE TABLE pane (
                        id INTEGER PRIMARY KEY,
                        uuid TEXT NOT NULL UNIQUE COLLATE NOCASE,
                        projectId INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        folder TEXT NOT NULL,
                        viewMode TEXT NOT NULL,
                        focusedTabIndex INTEGER NOT NULL DEFAULT 0,
                        UNIQUE (projectId, position)
                    );
                    CREATE TABLE tab (
                        id INTEGER PRIMARY KEY,
                        uuid TEXT NOT NULL UNIQUE COLLATE NOCASE,
                        paneId INTEGER NOT NULL REFERENCES pane(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        folder TEXT NOT NULL,
                        UNIQUE (paneId, position)
                    );
                    CREATE TABLE favorite (
                        id INTEGER PRIMARY KEY,
                        uuid TEXT NOT NULL UNIQUE COLLATE NOCASE,
                        position INTEGER NOT NULL UNIQUE,
                        name TEXT NOT NULL,
                        path TEXT NOT NULL,
                        createdAt REAL
                    );
                    CREATE TABLE owner (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        alias TEXT NOT NULL,
                        email TEXT NOT NULL DEFAULT '',
                        activeProjectId INTEGER REFERENCES project(id) ON DELETE SET NULL
                    );
                    """)
        }
        return migrator
    }

    /// The bytes the database takes on disk: the database file and, when present, its WAL.
    static func bytesOnDisk(_ path: String) -> Int {
        [path, path + "-wal"].reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int ?? 0)
        }
    }
}
