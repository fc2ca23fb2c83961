import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import TestSupport
import Testing

@Suite("Backups on a file system without hard links")
struct BackupFallbackTests {
    /// A migrated v1 file loaded through `fileSystem`, ready for its first save.
    struct Migrated {
        let directory: TemporaryDirectory
        let original: Data
        let file: StateFile<Notebook>
        let model: Notebook

        init(fileSystem: FaultInjectingFileSystem) throws {
            directory = try TemporaryDirectory()
            original = try Fixtures.data("notebook/v1.json")
            try directory.write("notebook.json", original)
            file = try notebookFile(directory, fileSystem: fileSystem)
            let loaded = try file.load()
            #expect(loaded.report.migrated)
            model = loaded.model
        }
    }

    @Test(arguments: [EPERM, EXDEV, ENOTSUP, EMLINK])
    func whenLinkIsUnsupportedTheBackupIsADurableCopy(errno: Int32) throws {
        let fileSystem = FaultInjectingFileSystem()
        let migrated = try Migrated(fileSystem: fileSystem)
        defer { migrated.directory.remove() }
        fileSystem.inject(.link, errno: errno, repeating: true)
        try migrated.file.save(migrated.model)
        let backup = migrated.directory.file("notebook.json.v1.bak")
        #expect(try migrated.directory.read("notebook.json.v1.bak") == migrated.original)
        #expect(try migrated.file.backups().map(\.name) == ["notebook.json.v1.bak"])
        #expect(try jsonObject(try migrated.directory.read("notebook.json"))["version"] as? Int == 4)
        #expect(try FileManager.default.attributesOfItem(atPath: backup)[.posixPermissions] as? Int == 0o600)
        let calls = fileSystem.calls
        let link = try #require(calls.firstIndex { $0.operation == .link && $0.failed })
        let rename = try #require(calls.firstIndex { $0.operation == .rename && $0.path == backup })
        let sync = try #require(calls.firstIndex { $0.operation == .fsync })
        let directorySync = try #require(
            calls.indices.first { calls[$0].operation == .fsyncDirectory && $0 > rename })
        #expect(link < sync && sync < rename && rename < directorySync, "temp file, fsync, rename, directory fsync")
        let stateRename = try #require(calls.lastIndex { $0.operation == .rename })
        #expect(directorySync < stateRename, "the backup is durable before the state file is replaced")
        #expect(try migrated.directory.names().filter { $0.contains(".tmp-") }.isEmpty)
    }

    @Test func aCopyNeverReplacesAnExistingBackup() throws {
        let fileSystem = FaultInjectingFileSystem()
        let migrated = try Migrated(fileSystem: fileSystem)
        defer { migrated.directory.remove() }
        try migrated.directory.write("notebook.json.v1.bak", "an earlier backup")
        fileSystem.inject(.link, errno: EPERM, repeating: true)
        try migrated.file.save(migrated.model)
        #expect(try migrated.directory.read("notebook.json.v1.bak") == Data("an earlier backup".utf8))
        #expect(try migrated.directory.read("notebook.json.v1.20261118T110640Z.bak") == migrated.original)
    }

    @Test func anotherLinkErrorStillFailsTheSaveAndWritesNothing() throws {
        let fileSystem = FaultInjectingFileSystem()
        let migrated = try Migrated(fileSystem: fileSystem)
        defer { migrated.directory.remove() }
        fileSystem.inject(.link, errno: EIO)
        #expect(
            throws: StateStoreError.backupFailed(
                FileSystemError(operation: "link", path: migrated.directory.file("notebook.json.v1.bak"), errno: EIO))
        ) {
            try migrated.file.save(migrated.model)
        }
        #expect(try migrated.directory.read("notebook.json") == migrated.original)
        #expect(try migrated.directory.names() == [".notebook.json.lock", "notebook.json"])
    }

    @Test func aFailedCopyFailsTheSaveNamingBothCallsAndWritesNothing() throws {
        let fileSystem = FaultInjectingFileSystem()
        let migrated = try Migrated(fileSystem: fileSystem)
        defer { migrated.directory.remove() }
        fileSystem.inject(.link, errno: EPERM, repeating: true)
        fileSystem.inject(.fsync, errno: EIO)
        do {
            try migrated.file.save(migrated.model)
            Issue.record("the save succeeded")
        } catch {
            guard case .backupCopyFailed(let linkError, let copy) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(linkError.errno == EPERM)
            #expect(copy.stage == .fsync)
            #expect(copy.path == migrated.directory.file("notebook.json.v1.bak"))
            #expect(error.description.contains("notebook.json.v1.bak"))
        }
        #expect(try migrated.directory.read("notebook.json") == migrated.original)
        #expect(try migrated.directory.names() == [".notebook.json.lock", "notebook.json"])
        fileSystem.clearFaults()
        try migrated.file.save(migrated.model)
        #expect(try migrated.directory.read("notebook.json.v1.bak") == migrated.original, "the next save retries")
    }
}
