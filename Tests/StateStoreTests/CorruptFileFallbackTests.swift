import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Testing

/// Issue 47: a broken file never starts the state from scratch while a good copy is on disk. After a quarantine
/// (policy quarantine, or a salvage that can keep nothing) the load serves the newest backup that loads.
@Suite("A corrupt file falls back to the newest backup that loads")
struct CorruptFileFallbackTests {
    /// A v1 notebook migrated and saved (so `notebook.json.v1.bak` holds the v1 bytes), then the state file cut
    /// in half, as a crash on a file system without the durable-write protocol would leave it.
    static func truncatedWithABackup(
        _ directory: TemporaryDirectory, policy: CorruptFilePolicy
    ) throws -> (original: Data, truncated: Data) {
        let original = try Fixtures.data("notebook/v1.json")
        try directory.write("notebook.json", original)
        do {
            let file = try notebookFile(directory)
            let loaded = try file.load()
            try file.save(loaded.model, revision: 7)
        }
        let saved = try directory.read("notebook.json")
        let truncated = saved.prefix(saved.count / 2)
        try directory.write("notebook.json", Data(truncated))
        return (original, Data(truncated))
    }

    @Test(arguments: [CorruptFilePolicy.quarantine, .salvage])
    func aTruncatedFileIsSetAsideAndTheNewestBackupServes(policy: CorruptFilePolicy) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (original, truncated) = try Self.truncatedWithABackup(directory, policy: policy)
        let file = try notebookFile(directory, configuration: StateFileConfiguration(corruptFilePolicy: policy))
        let loaded = try file.load()
        let quarantine = try #require(loaded.report.quarantine)
        #expect(loaded.report.source == .quarantined)
        #expect(quarantine.restoredFrom == "notebook.json.v1.bak")
        #expect(try directory.read((quarantine.movedTo as NSString).lastPathComponent) == truncated, "kept aside")
        #expect(loaded.report.stepsApplied == [1...2, 2...3, 3...4], "the v1 backup is migrated as any v1 file")
        #expect(loaded.model.notes.isEmpty == false, "the backup's notes, not the initial state")
        #expect(loaded.report.summary.contains("restored from backup notebook.json.v1.bak"), "\(loaded.report.summary)")
        #expect(loaded.report.lineageBreak == .quarantined)
        #expect(try directory.read("notebook.json") == original, "the backup's bytes are the state file now")
        try file.save(loaded.model)
        file.unlock()
        let reloaded = try notebookFile(directory, configuration: StateFileConfiguration(corruptFilePolicy: policy))
        #expect(try reloaded.load().model == loaded.model)
    }

    @Test func theFallbackCanBeTurnedOff() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try Self.truncatedWithABackup(directory, policy: .quarantine)
        var configuration = StateFileConfiguration()
        configuration.corruptFileFallback = .initialState
        let loaded = try notebookFile(directory, configuration: configuration).load()
        #expect(loaded.report.quarantine?.restoredFrom == nil)
        #expect(loaded.model == (try NotebookSchema.make()).initialModel())
        #expect(loaded.report.summary.hasSuffix("started from the initial state"), "\(loaded.report.summary)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("notebook.json")))
    }

    @Test func withoutABackupThatLoadsTheStateStartsFromTheInitialState() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try Self.truncatedWithABackup(directory, policy: .quarantine)
        try directory.write("notebook.json.v1.bak", "{\"version\":1,")
        let loaded = try notebookFile(directory).load()
        #expect(loaded.report.source == .quarantined)
        #expect(loaded.report.quarantine?.restoredFrom == nil)
        #expect(loaded.model == (try NotebookSchema.make()).initialModel())
    }
}
