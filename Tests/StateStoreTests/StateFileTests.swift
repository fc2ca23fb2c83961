import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Testing

@Suite("State file: lock, sweep, backups, determinism, report")
struct StateFileTests {
    @Test func aSecondHolderOfTheSameFileFailsWithAClearError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try notebookFile(directory)
        _ = try first.load()
        let second = try notebookFile(directory)
        #expect {
            try second.load()
        } throws: { error in
            guard case .locked(let lockPath, let holder) = error as? StateStoreError else { return false }
            return lockPath == directory.file(".notebook.json.lock") && holder == "\(getpid())"
        }
        first.unlock()
        _ = try second.load()
    }

    @Test func leftoverTemporaryFilesAreSweptAndNeverLoaded() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("notebook/v4.json"))
        try directory.write(".notebook.json.tmp-abc", "half a file")
        try directory.write(".other.json.tmp-abc", "not ours")
        let loaded = try notebookFile(directory).load()
        #expect(loaded.report.temporaryFilesRemoved == [".notebook.json.tmp-abc"])
        #expect(try directory.names() == [".notebook.json.lock", ".other.json.tmp-abc", "notebook.json"])
        #expect(loaded.model.author.givenName == "Margaret")
    }

    @Test func withDefaultSettingsTheFileIsCreatedWithMode0600() throws {
        #expect(StateFileConfiguration().fileMode == 0o600, "the documented default")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = StateFile(path: directory.file("notebook.json"), schema: try NotebookSchema.make())
        let loaded = try file.load()
        #expect(loaded.report.source == .noFile)
        try file.save(loaded.model)
        let created = try #require(try PosixFileSystem().attributes(of: directory.file("notebook.json")))
        #expect(created.mode == 0o600)
        try file.save(loaded.model)
        let replaced = try #require(try PosixFileSystem().attributes(of: directory.file("notebook.json")))
        #expect(replaced.mode == 0o600, "every save writes the mode again")
    }

    @Test func nothingIsWrittenBeforeALoad() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", "precious")
        let file = try notebookFile(directory)
        #expect(throws: StateStoreError.self) {
            try file.save(Notebook(notes: [], author: Author(givenName: "", familyName: "")))
        }
        #expect(try directory.read("notebook.json") == Data("precious".utf8))
    }

    @Test func theFirstSaveAfterAMigrationKeepsTheOriginalBytes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let original = try Fixtures.data("notebook/v1.json")
        try directory.write("notebook.json", original)
        let file = try notebookFile(directory)
        var loaded = try file.load()
        #expect(loaded.report.migrated)
        try file.save(loaded.model)
        #expect(try directory.read("notebook.json.v1.bak") == original)
        loaded.model.notes[0].pinned = true
        try file.save(loaded.model)
        #expect(try directory.names().filter { $0.hasSuffix(".bak") } == ["notebook.json.v1.bak"])
        let backups = try file.backups()
        #expect(backups.map(\.name) == ["notebook.json.v1.bak"])
        #expect(backups.first?.version == 1)
        #expect(backups.first?.kind == .preMigration)
    }

    @Test func noBackupWhenNothingWasMigrated() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("notebook/v4.json"))
        let file = try notebookFile(directory)
        try file.save(try file.load().model)
        #expect(try file.backups().isEmpty)
    }

    @Test func backupsAreBoundedAndNeverReplaced() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for round in 0..<4 {
            // Distinct bytes each round (trailing blank lines): identical backups would be kept once.
            try directory.write(
                "notebook.json", try Fixtures.data("notebook/v2.json") + Data(repeating: 0x0A, count: round + 1))
            let path = directory.file("notebook.json")
            let date = Date(timeIntervalSince1970: 1_700_000_000 + Double(round) * 100)
            _ = try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
            let file = try notebookFile(directory, configuration: StateFileConfiguration(backupsKept: 2))
            try file.save(try file.load().model)
            file.unlock()
        }
        let names = try directory.names().filter { $0.hasSuffix(".bak") }
        #expect(names.count == 2)
        #expect(names.allSatisfy { $0.hasPrefix("notebook.json.v2.") })
    }

    @Test func aNamedBackupCanBeRestored() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let original = try Fixtures.data("notebook/v1.json")
        try directory.write("notebook.json", original)
        let file = try notebookFile(directory)
        var loaded = try file.load()
        loaded.model.notes.removeAll()
        try file.save(loaded.model)
        try file.restoreBackup(named: "notebook.json.v1.bak")
        #expect(try directory.read("notebook.json") == original)
        #expect(try file.backups().contains { $0.kind == .beforeRestore })
        #expect(throws: StateStoreError.self) { try file.save(loaded.model) }
        let reloaded = try file.load()
        #expect(reloaded.model.notes.count == 2)
        #expect(throws: StateStoreError.backupNotFound(name: "nope.bak", directory: directory.path)) {
            try file.restoreBackup(named: "nope.bak")
        }
    }

    @Test func theSameStateGivesTheSameBytesWithSortedKeys() throws {
        let codec = StateCodec(schema: try NotebookSchema.make())
        let model = try codec.decode(try Fixtures.data("notebook/v1.json")).model
        let first = try codec.encode(model)
        for _ in 0..<20 { #expect(try codec.encode(model) == first) }
        let text = String(decoding: first, as: UTF8.self)
        let keys = ["\"author\"", "\"minReaderVersion\"", "\"notes\"", "\"theme\"", "\"version\""]
        let positions = keys.map { text.range(of: $0)!.lowerBound }
        #expect(positions == positions.sorted())
        #expect(!text.contains("\n"))
        let pretty = StateCodec(schema: try NotebookSchema.make(), prettyPrinted: true)
        #expect(String(decoding: try pretty.encode(model), as: UTF8.self).contains("\n"))
    }

    @Test func theReportSaysWhatHappened() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes = try Fixtures.data("notebook/v1.json")
        try directory.write("notebook.json", bytes)
        let report = try notebookFile(directory).load().report
        #expect(report.source == .file)
        #expect(report.storedVersion == 1)
        #expect(report.currentVersion == 4)
        #expect(report.stepsApplied == [1...2, 2...3, 3...4])
        #expect(report.fieldsDefaulted == ["notes[].pinned": 2, "notes[].createdAt": 2])
        #expect(report.unknownKeysKept.count == 3)
        #expect(report.byteCount == bytes.count)
        #expect(report.timings.total >= report.timings.decode)
        #expect(report.summary.contains("migrated version 1 to 4"))
    }

    @Test func everyShippedVersionPassesTheFixtureVerifier() throws {
        let results = try FixtureVerifier(schema: try NotebookSchema.make()).verifyDirectory(Fixtures.notebook)
        #expect(results.map(\.storedVersion) == [1, 2, 3, 4])
    }

    @Test func theFixtureVerifierCatchesAStepThatIsNotIdempotent() throws {
        let bad = try StateSchema<Current>(
            currentVersion: 2,
            migrations: [MigrationStep(from: 1, Old.self, to: Current.self) { old, _ in Current(a: old.a) }],
            initial: { Current(a: 0) },
            repair: { model, log in
                model.a += 1
                log.repaired("bumped")
            })
        #expect(throws: FixtureFailure.self) {
            try FixtureVerifier(schema: bad).verify(Data(#"{"a": 1}"#.utf8), name: "bad.json")
        }
        #expect {
            try FixtureVerifier(schema: try NotebookSchema.make()).verifyDirectory(
                Fixtures.root.appendingPathComponent("edge"))
        } throws: { error in
            (error as? FixtureFailure)?.check == "load"
        }
    }
}
