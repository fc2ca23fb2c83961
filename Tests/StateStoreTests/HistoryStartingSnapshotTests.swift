import Foundation
import StateStoreSample
import StateStoreTesting
import Testing

@testable import StateStore

/// A start keeps the state file it loaded as the history's snapshot of that revision: the link and the manifest's
/// record of it are made after the start (HistoryStartWorkTests).
@Suite struct HistoryStartingSnapshotTests {
    /// A first run that leaves a saved state at a revision the history has no snapshot of; returns that revision.
    func firstRun(_ directory: TemporaryDirectory) throws -> UInt64 {
        let file = try notebookFile(directory)
        defer { file.unlock() }
        let state = try openJournaled(file, history: HistoryTests.history)
        try state.saveSynchronously()
        for index in 1...3 { try state.apply(NoteChange.add(id: "n\(index)", title: "note \(index)")) }
        try state.close()
        return state.status.savedRevision
    }

    /// A start whose durable replacements (temporary file, then rename: the manifest's too) fail from its load on.
    func startWithoutManifestWrites(
        _ directory: TemporaryDirectory
    ) throws -> (FaultInjectingFileSystem, StateFile<Notebook>, PersistentState<Notebook>) {
        let fileSystem = FaultInjectingFileSystem()
        let file = try notebookFile(directory, fileSystem: fileSystem)
        let loaded = try file.load()
        fileSystem.inject(.rename, errno: EIO, repeating: true)
        let state = try PersistentState(
            file: file, loaded: loaded, journaling: NoteChange.self, history: HistoryTests.history,
            scheduler: ManualPersistenceScheduler())
        return (fileSystem, file, state)
    }

    /// Checks that the manifest lacks the snapshot `prefix` names and that the next start adopts it undamaged;
    /// returns that start.
    func expectTheNextStartAdopts(_ directory: TemporaryDirectory, prefix: String) throws -> PersistentState<Notebook> {
        let manifest = try String(
            contentsOfFile: directory.file("notebook.json.history/manifest.json"), encoding: .utf8)
        #expect(!manifest.contains(prefix))
        let reopened = try openJournaled(try notebookFile(directory), history: HistoryTests.history)
        let status = try #require(reopened.historyStatus)
        #expect(status.damaged.isEmpty && status.snapshotCount == 2, "\(status)")
        return reopened
    }

    @Test func theStartDoesNotWaitForTheManifestAndCloseWritesIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let revision = try firstRun(directory)
        let prefix = "snapshot.\(revision)."
        #expect(try !historyNames(directory).contains { $0.hasPrefix(prefix) })

        let (fileSystem, file, state) = try startWithoutManifestWrites(directory)
        defer { file.unlock() }
        let status = try #require(state.historyStatus)
        #expect(status.damaged.isEmpty, "the start kept its snapshot without the manifest: \(status.damaged)")
        #expect(status.snapshotCount == 2, "\(status)")
        #expect(try historyNames(directory).contains { $0.hasPrefix(prefix) })

        fileSystem.clearFaults()
        state.saveQueue.sync {}  // the description queued after the start has run (its manifest write failed)
        try state.close()
        let manifest = try String(
            contentsOfFile: directory.file("notebook.json.history/manifest.json"), encoding: .utf8)
        #expect(manifest.contains(prefix), "\(manifest)")
    }

    /// The late record is written without a syncfs(2) first (the snapshot is a link of a durable file): one
    /// held the archive's lock while it flushed the whole file system, and a stop right after the start waited.
    @Test func theRecordIsWrittenWithoutSyncingTheFileSystemFirst() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let prefix = "snapshot.\(try firstRun(directory))."
        // The segments the first run's saves moved are recorded first: records the open adopts are written after
        // a syncfs (HistoryAdoptedManifestTests), and this start is to add the snapshot's alone.
        let reconciling = HistoryArchive(
            stateFilePath: directory.file("notebook.json"), stateDirectory: directory.path,
            stateFileName: "notebook.json", fileSystem: PosixFileSystem(), configuration: HistoryTests.history,
            journalMaximumByteCount: JournalConfiguration().maximumByteCount, fileMode: 0o600)
        reconciling.open()
        reconciling.writeManifestIfBehind()
        let history = directory.file("notebook.json.history")
        let fileSystem = FaultInjectingFileSystem()
        let file = try notebookFile(directory, fileSystem: fileSystem)
        defer { file.unlock() }
        let state = try PersistentState(
            file: file, loaded: try file.load(), journaling: NoteChange.self, history: HistoryTests.history,
            scheduler: ManualPersistenceScheduler())
        state.saveQueue.sync {}  // the write queued after the start has run
        let calls = fileSystem.calls
        let link = try #require(calls.firstIndex { $0.operation == .link && $0.path.contains(prefix) })
        let rename = try #require(
            calls[link...].firstIndex { $0.operation == .rename && $0.path.hasSuffix("/manifest.json") })
        // Between the snapshot's link and the manifest that records it, the history's directory is synced once:
        // after the link. A syncfs(2) before the manifest is recorded as a second sync of that directory.
        let syncs = calls[link..<rename].filter { $0.operation == .fsyncDirectory && $0.path == history }
        #expect(syncs.count == 1, "\(calls[link...rename].map { "\($0.operation) \($0.path)" })")
        try state.close()
        #expect(try String(contentsOfFile: history + "/manifest.json", encoding: .utf8).contains(prefix))
    }

    /// The start records the snapshot with its size and no checksums, and hashes it after: the record then has
    /// the file's checksums, and a read of the past that comes first computes them itself.
    @Test func theChecksumsAreComputedAfterTheStartOrByTheFirstRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let revision = try firstRun(directory)
        let file = try notebookFile(directory)
        defer { file.unlock() }
        let loaded = try file.load()
        let state = try PersistentState(
            file: file, loaded: loaded, journaling: NoteChange.self, history: HistoryTests.history,
            scheduler: ManualPersistenceScheduler())
        let archive = try #require(state.history)
        state.saveQueue.sync {}  // the link and the description queued after the start have run
        let kept = try #require(try historyNames(directory).first { $0.hasPrefix("snapshot.\(revision).") })
        let bytes = try Data(contentsOf: URL(fileURLWithPath: archive.path(kept)))
        let described = try #require(archive.state.withLock { $0.manifest.files.first { $0.name == kept } })
        #expect(archive.state.withLock { $0.undescribed } == nil)
        #expect(described.sha256 == SHA256Digest.hex(bytes) && described.bytes == bytes.count)
        #expect(described.crc32c == CRC32C.checksum(bytes))

        // Made undescribed again, as a read right after a start finds it: the read computes the checksums.
        archive.state.withLock { archive in
            let index = archive.manifest.files.firstIndex { $0.name == kept }!
            archive.manifest.files[index].sha256 = ""
            archive.manifest.files[index].crc32c = nil
            archive.undescribed = kept
        }
        try state.apply(NoteChange.add(id: "n4", title: "after the start"))
        let past = try state.model(atRevision: revision)
        #expect(past.notes.map(\.id) == ["n1", "n2", "n3"])
        #expect(archive.state.withLock { $0.manifest.files.first { $0.name == kept } } == described)
        try state.close()
    }

    /// A stop before the checksums are computed writes no record of the snapshot (nor hashes it), and the
    /// description that comes after the stop writes nothing: the next start adopts the file, as after a crash.
    @Test func aStopBeforeTheDescriptionLeavesTheSnapshotToTheNextStart() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let revision = try firstRun(directory)
        let prefix = "snapshot.\(revision)."
        do {
            // The description's manifest write fails, so the manifest on disk still lacks the snapshot.
            let (fileSystem, file, state) = try startWithoutManifestWrites(directory)
            defer { file.unlock() }
            state.saveQueue.sync {}
            fileSystem.clearFaults()
            let archive = try #require(state.history)
            let kept = try #require(try historyNames(directory).first { $0.hasPrefix(prefix) })
            // Undescribed again, as a stop right after the start finds it.
            archive.state.withLock { $0.undescribed = kept }
            try state.close()
            #expect(archive.state.withLock { $0.undescribed } == kept, "the stop did not hash it")
            archive.describeStartingSnapshot()
        }
        try expectTheNextStartAdopts(directory, prefix: prefix).close()
    }

    @Test func aCrashBeforeTheManifestLeavesTheSnapshotForTheNextStartToAdopt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let revision = try firstRun(directory)
        let prefix = "snapshot.\(revision)."
        do {
            // Dropped without close(), as a crash leaves it: the manifest was never written.
            let (_, file, _) = try startWithoutManifestWrites(directory)
            file.unlock()
        }
        let reopened = try expectTheNextStartAdopts(directory, prefix: prefix)
        let status = try #require(reopened.historyStatus)
        #expect(status.oldestRevision == 0)
        #expect(reopened.read { $0.notes.map(\.id) } == ["n1", "n2", "n3"])
    }
}
