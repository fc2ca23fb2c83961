import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Testing

/// A backup whose bytes are already kept is not kept twice, so repeated restores and migrations of one file never
/// push distinct backups out of `backupsKept`; manual backups are made on demand and never pruned.
@Suite("Backups: identical ones kept once, manual ones on demand")
struct BackupIdentityTests {
    /// Writes `fixture` as the state file, loads and saves it (the first save after a migration keeps a backup);
    /// returns where the backup is.
    @discardableResult
    static func migrate(
        _ fixture: String, in directory: TemporaryDirectory, backupsKept: Int = 2
    ) throws -> String? {
        try directory.write("notebook.json", try Fixtures.data(fixture))
        let file = try notebookFile(directory, configuration: StateFileConfiguration(backupsKept: backupsKept))
        defer { file.unlock() }
        try file.save(try file.load().model)
        return file.preMigrationBackupPath
    }

    static func backupNames(_ directory: TemporaryDirectory) throws -> [String] {
        try directory.names().filter { $0.hasSuffix(".bak") }
    }

    @Test func theSameFileMigratedAgainAndAgainIsKeptOnceAndPushesNoOtherBackupOut() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.migrate("notebook/v1.json", in: directory)
        for _ in 1...3 {
            #expect(try Self.migrate("notebook/v2.json", in: directory) == directory.file("notebook.json.v2.bak"))
        }
        #expect(try Self.backupNames(directory) == ["notebook.json.v1.bak", "notebook.json.v2.bak"])
    }

    @Test func repeatedRestoresOfOneBackupKeepEachStateOnce() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.migrate("notebook/v1.json", in: directory)
        for _ in 1...3 {
            for _ in 1...2 {
                let file = try notebookFile(directory)
                try file.restoreBackup(named: "notebook.json.v1.bak")
                file.unlock()
            }
            // The next start migrates the restored file again: its pre-migration bytes are v1.bak's.
            let file = try notebookFile(directory, configuration: StateFileConfiguration(backupsKept: 2))
            try file.save(try file.load().model)
            #expect(file.preMigrationBackupPath == directory.file("notebook.json.v1.bak"))
            file.unlock()
        }
        let names = try Self.backupNames(directory)
        #expect(names.filter { $0.hasPrefix("notebook.json.v1.") } == ["notebook.json.v1.bak"])
        // One per round: the second restore of a round found the state file's bytes in v1.bak already.
        #expect(names.filter { $0.contains(".before-restore.") }.count == 3, "\(names)")
    }

    @Test func aManualBackupIsKeptOnceAndNeverPruned() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("notebook/v4.json"))
        let owner = try notebookFile(directory)
        _ = try owner.load()  // the owner holds the lock: a manual backup takes none
        let manual = try #require(try notebookFile(directory).keepManualBackup())
        #expect(manual.isNew && manual.backup.name == "notebook.json.manual-20261118T110640Z.bak")
        #expect(manual.backup.kind == .manual)
        #expect(try directory.read(manual.backup.name) == (try Fixtures.data("notebook/v4.json")))
        let again = try #require(try notebookFile(directory).keepManualBackup())
        #expect(!again.isNew && again.backup.name == manual.backup.name)
        owner.unlock()

        try Self.migrate("notebook/v2.json", in: directory, backupsKept: 1)
        try Self.migrate("notebook/v3.json", in: directory, backupsKept: 1)
        #expect(try Self.backupNames(directory) == [manual.backup.name, "notebook.json.v3.bak"])
        #expect(try notebookFile(directory).backups().map(\.kind).contains(.manual))
    }

    @Test func noStateFileMeansNoManualBackup() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(try notebookFile(directory).keepManualBackup() == nil)
        #expect(try directory.names().isEmpty)
    }
}
