import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Testing

/// History (issue 42): compaction keeps the journal's segments and the snapshots they continue, and the state at
/// any kept revision and the changes since one can be read back, across restarts and crashes, within a retention.
@Suite struct HistoryTests {
    static let history = HistoryConfiguration(keepSeconds: 3600, maximumByteCount: 1 << 20)

    /// Applies `count` changes from `first`, flushing after every `flushEvery`, and returns the note ids at each
    /// revision reached.
    func work(
        _ state: PersistentState<Notebook>, scheduler: ManualPersistenceScheduler, from first: Int, count: Int,
        flushEvery: Int = 3, origin: String? = nil
    ) throws -> [UInt64: [String]] {
        var seen: [UInt64: [String]] = [:]
        for index in first..<(first + count) {
            let change: NoteChange =
                index % 4 == 3
                ? .rename(id: "n\(index - 1)", title: "renamed \(index)")
                : .add(id: "n\(index)", title: "note \(index)")
            let applied = try state.apply(change, origin: origin, returning: { _ in () })
            seen[applied.revision] = state.read { $0.notes.map { "\($0.id):\($0.title)" } }
            scheduler.advance(by: .milliseconds(5))
            if index % flushEvery == 0 { try state.flushSynchronously() }
        }
        return seen
    }

    func titles(_ notebook: Notebook) -> [String] { notebook.notes.map { "\($0.id):\($0.title)" } }

    @Test func everyRevisionSinceTheFirstSnapshotReadsBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scheduler = ManualPersistenceScheduler()
        let state = try openJournaled(try notebookFile(directory), scheduler: scheduler, history: Self.history)
        try state.saveSynchronously()
        var expected: [UInt64: [String]] = [0: []]
        expected.merge(try work(state, scheduler: scheduler, from: 1, count: 20)) { $1 }
        for revision in 0...state.status.revision {
            #expect(titles(try state.model(atRevision: revision)) == expected[revision], "revision \(revision)")
        }
        let names = try historyNames(directory)
        #expect(names.contains("manifest.json"))
        #expect(names.contains { $0.hasPrefix("snapshot.0.") }, "\(names)")
        #expect(names.filter { $0.hasPrefix("journal.") }.count >= 5, "\(names)")
        let status = try #require(state.historyStatus)
        #expect(status.oldestRevision == 0 && status.damaged.isEmpty, "\(status)")
        #expect(status.segmentCount >= 5 && status.snapshotCount >= 1)
        #expect(throws: HistoryError.notReached(revision: 21, currentRevision: 20)) {
            try state.model(atRevision: 21)
        }
    }

    @Test func changesCarryTheirTimeAndOriginAndPageFromARevision() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scheduler = ManualPersistenceScheduler()
        let start = scheduler.date
        let state = try openJournaled(try notebookFile(directory), scheduler: scheduler, history: Self.history)
        try state.saveSynchronously()
        _ = try work(state, scheduler: scheduler, from: 1, count: 10, origin: "uid 1000 pid 7")
        let page = try state.changes(NoteChange.self, after: 4, limit: 3)
        #expect(page.entries.map(\.revision) == [5, 6, 7] && page.hasMore && page.currentRevision == 10)
        #expect(page.entries.first?.change == .add(id: "n5", title: "note 5"))
        #expect(page.entries.allSatisfy { $0.origin == "uid 1000 pid 7" })
        let fifth = try #require(page.entries.first?.date)
        #expect(abs(fifth.timeIntervalSince(start) - 0.020) < 0.002, "applied 4 × 5 ms after the start")
        let newest = try state.changes(NoteChange.self, after: nil, limit: 2)
        #expect(newest.entries.map(\.revision) == [9, 10] && newest.hasMore)
        let renames = try state.changes(NoteChange.self, after: 0, limit: 100) {
            if case .rename = $0.change { return true }
            return false
        }
        #expect(renames.entries.map(\.revision) == [3, 7] && !renames.hasMore)
    }

    @Test func historyReachesAcrossACrashAndACleanRestart() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scheduler = ManualPersistenceScheduler()
        var file: StateFile<Notebook>? = try notebookFile(directory)
        var state: PersistentState<Notebook>? = try openJournaled(file!, scheduler: scheduler, history: Self.history)
        try state!.saveSynchronously()
        var expected: [UInt64: [String]] = [0: []]
        expected.merge(try work(state!, scheduler: scheduler, from: 1, count: 8)) { $1 }
        // A crash: the journal holds revisions after the last snapshot (6).
        file!.unlock()
        state = nil
        file = nil
        let second = try openJournaled(try notebookFile(directory), scheduler: scheduler, history: Self.history)
        #expect(second.status.revision == 8)
        expected.merge(try work(second, scheduler: scheduler, from: 9, count: 7)) { $1 }
        for revision in 0...second.status.revision {
            #expect(
                titles(try second.model(atRevision: revision)) == expected[revision], "after the crash, \(revision)")
        }
        try second.close()
        second.file.unlock()
        let third = try openJournaled(try notebookFile(directory), scheduler: scheduler, history: Self.history)
        expected.merge(try work(third, scheduler: scheduler, from: 16, count: 2)) { $1 }
        for revision in 0...third.status.revision {
            #expect(
                titles(try third.model(atRevision: revision)) == expected[revision], "after the restart, \(revision)")
        }
        #expect(try third.changes(NoteChange.self, after: 0, limit: 100).entries.map(\.revision) == Array(1...17))
        #expect(third.historyStatus?.olderEpochs == [], "a crash continues the history: no new epoch")
    }

    @Test func aStateWithoutAFileReadsBackFromItsInitialState() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scheduler = ManualPersistenceScheduler()
        var file: StateFile<Notebook>? = try notebookFile(directory)
        var state: PersistentState<Notebook>? = try openJournaled(file!, scheduler: scheduler, history: Self.history)
        var expected: [UInt64: [String]] = [0: []]
        // Two changes, then a crash before any save: no state file, only the journal.
        expected.merge(try work(state!, scheduler: scheduler, from: 1, count: 2)) { $1 }
        file!.unlock()
        state = nil
        file = nil
        let reopened = try openJournaled(try notebookFile(directory), scheduler: scheduler, history: Self.history)
        expected.merge(try work(reopened, scheduler: scheduler, from: 3, count: 5)) { $1 }
        #expect(reopened.historyStatus?.oldestRevision == 0)
        for revision in 0...reopened.status.revision {
            #expect(titles(try reopened.model(atRevision: revision)) == expected[revision], "revision \(revision)")
        }
        #expect(
            try reopened.changes(NoteChange.self, after: 0, limit: 100).entries.map(\.revision) == Array(1...7))
    }

    @Test func offKeepsNothingAndSaysSo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scheduler = ManualPersistenceScheduler()
        let state = try openJournaled(try notebookFile(directory), scheduler: scheduler)
        _ = try work(state, scheduler: scheduler, from: 1, count: 6)
        #expect(!(try directory.names()).contains("notebook.json.history"))
        #expect(state.historyStatus == nil)
        #expect(throws: HistoryError.disabled) { try state.model(atRevision: 1) }
        #expect(throws: HistoryError.disabled) { try state.changes(NoteChange.self, after: 0, limit: 1) }
    }

    @Test func retentionPrunesOldestFirstByAgeAndBySize() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scheduler = ManualPersistenceScheduler()
        // Snapshots every 1 KiB of segments: several generations.
        let history = HistoryConfiguration(keepSeconds: 60, maximumByteCount: 1 << 20)
        let state = try openJournaled(
            try notebookFile(directory), scheduler: scheduler, journal: JournalConfiguration(maximumByteCount: 1024),
            history: history)
        try state.saveSynchronously()
        _ = try work(state, scheduler: scheduler, from: 1, count: 60)
        let before = try #require(state.historyStatus)
        #expect(before.oldestRevision == 0 && before.snapshotCount >= 2, "\(before)")
        // An hour later, the changes before are past the retention; the newest generation stays.
        scheduler.advance(by: .seconds(3600))
        _ = try work(state, scheduler: scheduler, from: 61, count: 3)
        let after = try #require(state.historyStatus)
        let oldest = try #require(after.oldestRevision)
        #expect(oldest > 0 && after.byteCount < before.byteCount, "\(after)")
        #expect(throws: HistoryError.pruned(revision: 0, oldestRevision: oldest)) { try state.model(atRevision: 0) }
        #expect(throws: HistoryError.pruned(revision: 0, oldestRevision: oldest)) {
            try state.changes(NoteChange.self, after: 0, limit: 1)
        }
        #expect(try state.model(atRevision: oldest).notes.count > 0)
    }

    @Test func sizeBoundPrunesWholeGenerations() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scheduler = ManualPersistenceScheduler()
        let history = HistoryConfiguration(keepSeconds: 3600, maximumByteCount: 8 << 10)
        let state = try openJournaled(
            try notebookFile(directory), scheduler: scheduler, journal: JournalConfiguration(maximumByteCount: 1024),
            history: history)
        try state.saveSynchronously()
        _ = try work(state, scheduler: scheduler, from: 1, count: 150)
        let status = try #require(state.historyStatus)
        #expect(status.byteCount <= 8 << 10 + 4096, "\(status)")
        let oldest = try #require(status.oldestRevision)
        #expect(oldest > 0)
        #expect(try state.model(atRevision: oldest).notes.count > 0)
        #expect(try state.changes(NoteChange.self, after: oldest, limit: 1000).entries.count == Int(150 - oldest))
    }

    @Test func aDamagedFileIsNamedAndReadsThatDoNotNeedItAreServed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scheduler = ManualPersistenceScheduler()
        let state = try openJournaled(
            try notebookFile(directory), scheduler: scheduler, journal: JournalConfiguration(maximumByteCount: 300),
            history: Self.history)
        try state.saveSynchronously()
        _ = try work(state, scheduler: scheduler, from: 1, count: 12)
        let snapshots = try historyNames(directory).compactMap { name -> UInt64? in
            let parts = name.split(separator: ".")
            return parts.first == "snapshot" ? UInt64(parts[1]) : nil
        }
        let newestSnapshot = try #require(snapshots.max())
        #expect(newestSnapshot > 3, "\(snapshots)")
        let segment = try #require(
            try historyNames(directory).filter { $0.hasPrefix("journal.0.") }.first)
        let path = directory.file("notebook.json.history/" + segment)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // A byte of revision 2's record (the addition of "note 2") changes.
        let at = try #require(bytes.firstRange(of: Data("note 2".utf8))).lowerBound
        bytes[at] ^= 0x20
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(state.historyStatus?.damaged == [], "the start's cheap check compares sizes only")
        #expect(state.verifyHistory()?.damaged.map(\.path) == [path], "the full check reads every file")
        // Revision 1 does not need the damaged record, revision 2 does.
        #expect(try state.model(atRevision: 1).notes.count == 1, "the records before the damage are read")
        #expect {
            try state.model(atRevision: 2)
        } throws: { error in
            guard case HistoryError.damaged(let damagedPath, _) = error else { return false }
            return damagedPath == path
        }
        #expect(state.historyStatus?.damaged.map(\.path) == [path])
        #expect(try state.model(atRevision: 12).notes.count == 9, "the current revision needs no file")
        #expect(
            try state.model(atRevision: newestSnapshot).notes.count > 0, "a later snapshot's reads do not need it")
    }

    @Test func aSnapshotAnOlderSchemaWroteIsMigratedOnRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scheduler = ManualPersistenceScheduler()
        // A version 1 file, stamped as a save stamps it, as an older release left it before an upgrade.
        let fixture = try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Fixtures/notebook/v1.json"))
        var object = try #require(try JSONSerialization.jsonObject(with: fixture) as? [String: Any])
        object["revision"] = 0
        object["lineage"] = "0123456789abcdef"
        try JSONSerialization.data(withJSONObject: object).write(
            to: URL(fileURLWithPath: directory.file("notebook.json")))
        let state = try openJournaled(try notebookFile(directory), scheduler: scheduler, history: Self.history)
        var expected: [UInt64: [String]] = [0: titles(state.read { $0 })]
        expected.merge(try work(state, scheduler: scheduler, from: 3, count: 9)) { $1 }
        let names = try historyNames(directory)
        #expect(names.contains("snapshot.0.0123456789abcdef.json"), "\(names)")
        let kept = try directory.read("notebook.json.history/snapshot.0.0123456789abcdef.json")
        #expect(try StateCodec(schema: try NotebookSchema.make()).decode(kept).storedVersion == 1)
        for revision in 0...state.status.revision {
            #expect(titles(try state.model(atRevision: revision)) == expected[revision], "revision \(revision)")
        }
    }

    @Test func aManifestThatIsLostIsRebuiltFromTheFiles() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scheduler = ManualPersistenceScheduler()
        var file: StateFile<Notebook>? = try notebookFile(directory)
        var state: PersistentState<Notebook>? = try openJournaled(file!, scheduler: scheduler, history: Self.history)
        try state!.saveSynchronously()
        var expected: [UInt64: [String]] = [0: []]
        expected.merge(try work(state!, scheduler: scheduler, from: 1, count: 9)) { $1 }
        try state!.close()
        file!.unlock()
        state = nil
        file = nil
        let manifest = directory.file("notebook.json.history/manifest.json")
        try "{not json".write(toFile: manifest, atomically: false, encoding: .utf8)
        let reopened = try openJournaled(try notebookFile(directory), scheduler: scheduler, history: Self.history)
        #expect(reopened.historyStatus?.damaged.map(\.path) == [manifest])
        for revision in 0...reopened.status.revision {
            #expect(titles(try reopened.model(atRevision: revision)) == expected[revision], "revision \(revision)")
        }
    }
}

/// The names in the history directory of `notebook.json`.
func historyNames(_ directory: TemporaryDirectory) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.file("notebook.json.history")).sorted()
}
