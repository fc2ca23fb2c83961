import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Testing

/// Restoring backups and set-aside copies: what is taken, what is refused, and the hand-over to the next load.
@Suite("Backups: restore of any kept file, with a clean hand-over")
struct BackupRestoreTests {
    /// The name a set-aside copy gets under `fixedNow`.
    static let setAsideName = "notebook.json.corrupt-20261118T110640Z"

    /// The notes of the state file as the next load gives them.
    static func noteIDs(_ loaded: LoadedState<Notebook>) -> [String] { loaded.model.notes.map(\.id) }

    @Test func aRestoreHandsTheFileOverSoTheNextLoadIsNoUncleanStop() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try RevisionLineageTests.Owner(directory)
        try first.add("a")
        try first.stop()
        let manual = try #require(try notebookFile(directory).keepManualBackup())
        let second = try RevisionLineageTests.Owner(directory)
        try second.add("b")
        try second.stop()
        let replaced = second.state.lineage

        let restorer = try notebookFile(directory)
        let restored = try restorer.restoreBackup(named: manual.backup.name)
        restorer.unlock()
        #expect(restored.backup.kind == .manual)
        #expect(restored.storedVersion == 4 && restored.revision == 1)
        #expect(restored.model.notes.map(\.id) == ["a"])
        #expect(restored.handOverProblem == nil)
        #expect(restored.previousKeptAs?.hasPrefix("notebook.json.before-restore.") == true)

        let next = try RevisionLineageTests.Owner(directory)
        #expect(next.loaded.report.lineageBreak == .restored, "not \(LineageBreak.uncleanStop)")
        #expect(next.loaded.report.lineage == restored.lineage && restored.lineage != replaced)
        #expect(next.loaded.report.revision == 1)
        #expect(Self.noteIDs(next.loaded) == ["a"])
        #expect(try next.add("c") == 2, "revisions count on under the new lineage")
        try next.stop()
        #expect(try RevisionLineageTests.Owner(directory).loaded.report.lineageBreak == nil)
    }

    @Test func aLoadThroughTheRestoringObjectContinuesTheHandOverToo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("notebook/v1.json"))
        let file = try notebookFile(directory)
        var loaded = try file.load()
        loaded.model.notes.removeAll()
        try file.save(loaded.model)
        let restored = try file.restoreBackup(named: "notebook.json.v1.bak")
        let reloaded = try file.load()
        #expect(reloaded.report.lineageBreak == .restored)
        #expect(reloaded.report.lineage == restored.lineage)
        #expect(reloaded.report.migrated && reloaded.model.notes.count == 2)
    }

    @Test func aQuarantinedCopyThatDoesNotLoadIsRefusedAndNothingChanges() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", "{not json")
        let quarantining = try notebookFile(
            directory, configuration: StateFileConfiguration(corruptFilePolicy: .quarantine))
        try quarantining.save(try quarantining.load().model)
        quarantining.unlock()
        let listed = try notebookFile(directory).backups(includingSetAside: true)
        #expect(listed.map(\.name) == [Self.setAsideName] && listed.first?.kind == .corrupt)
        #expect(try notebookFile(directory).backups().isEmpty, "set-aside copies are no backups to fall back on")
        let before = try directory.names().map { ($0, try directory.read($0)) }
        for salvaging in [false, true] {
            let file = try notebookFile(directory)
            #expect {
                try file.restoreBackup(named: Self.setAsideName, salvaging: salvaging)
            } throws: { error in
                guard case .backupUnreadable(let name, _) = error as? StateStoreError else { return false }
                return name == Self.setAsideName
            }
            file.unlock()
        }
        let lockless = try directory.names().filter { $0 != ".notebook.json.lock" }
        #expect(lockless == before.map(\.0).filter { $0 != ".notebook.json.lock" })
        for (name, bytes) in before where name != ".notebook.json.lock" { #expect(try directory.read(name) == bytes) }
    }

    @Test func aSalvagedFilesOriginalIsRestoredOnlyWhenAskedToSalvageIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bad = SalvageTests.note(1, ["title": "[\"not\", \"a\", \"title\"]"])
        let original = SalvageTests.notebook([SalvageTests.note(0), bad, SalvageTests.note(2)])
        try directory.write("notebook.json", original)
        let owner = try RevisionLineageTests.Owner(directory)
        #expect(owner.loaded.report.source == .salvaged)
        try owner.add("later")
        try owner.stop()

        let strict = try notebookFile(directory)
        #expect(throws: StateStoreError.self) { try strict.restoreBackup(named: Self.setAsideName) }
        strict.unlock()
        let salvaging = try notebookFile(directory)
        let restored = try salvaging.restoreBackup(named: Self.setAsideName, salvaging: true)
        salvaging.unlock()
        #expect(restored.backup.kind == .corrupt)
        #expect(restored.salvage?.droppedRecords.count == 1)
        #expect(try directory.read(Self.setAsideName) == Data(original.utf8), "the copy restored is only read")

        let next = try RevisionLineageTests.Owner(directory)
        #expect(next.loaded.report.source == .file && next.loaded.report.salvage == nil)
        #expect(next.loaded.report.lineageBreak == .restored)
        #expect(Self.noteIDs(next.loaded) == ["n0", "n2"])
    }

    @Test func theCrashLoopGuardsCopyIsListedAsSuchAndRestored() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let crashing = try Fixtures.data("notebook/v4.json")
        try directory.write("notebook.json", crashing)
        for _ in 1...3 { _ = try CrashedLoadGuardTests.dyingLoad(directory) }
        let guarded = try CrashedLoadGuardTests.file(directory)
        let crash = try #require(try guarded.load().report.crashedLoad)
        try guarded.finishedLoading()
        guarded.unlock()
        let listed = try notebookFile(directory).backups(includingSetAside: true)
        #expect(listed.map(\.kind) == [.crashedLoad] && listed.first?.path == crash.movedTo)

        let file = try notebookFile(directory)
        let restored = try file.restoreBackup(named: (crash.movedTo as NSString).lastPathComponent)
        file.unlock()
        #expect(restored.backup.kind == .crashedLoad && restored.storedVersion == 4)
        #expect(try directory.read("notebook.json") == crashing)
        #expect(restored.previousKeptAs == nil, "the guard started empty: there was no file to keep")
    }
}
