import Foundation
import StateStoreSample
import StateStoreTesting
import Testing

@testable import StateStore

/// A start keeps the state file it loaded as the history's snapshot of that revision: the link is made durable on
/// the start's path, the manifest's record of it after the start.
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

    @Test func theStartDoesNotWaitForTheManifestAndCloseWritesIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let revision = try firstRun(directory)
        let prefix = "snapshot.\(revision)."
        #expect(try !historyNames(directory).contains { $0.hasPrefix(prefix) })

        let fileSystem = FaultInjectingFileSystem()
        let file = try notebookFile(directory, fileSystem: fileSystem)
        defer { file.unlock() }
        let loaded = try file.load()
        // From here no durable replacement (temporary file, then rename) can finish: not the manifest's either.
        fileSystem.inject(.rename, errno: EIO, repeating: true)
        let state = try PersistentState(
            file: file, loaded: loaded, journaling: NoteChange.self, history: HistoryTests.history,
            scheduler: ManualPersistenceScheduler())
        let status = try #require(state.historyStatus)
        #expect(status.damaged.isEmpty, "the start kept its snapshot without the manifest: \(status.damaged)")
        #expect(status.snapshotCount == 2, "\(status)")
        #expect(try historyNames(directory).contains { $0.hasPrefix(prefix) })

        fileSystem.clearFaults()
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

    @Test func aCrashBeforeTheManifestLeavesTheSnapshotForTheNextStartToAdopt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let revision = try firstRun(directory)
        let prefix = "snapshot.\(revision)."
        do {
            let fileSystem = FaultInjectingFileSystem()
            let file = try notebookFile(directory, fileSystem: fileSystem)
            defer { file.unlock() }
            let loaded = try file.load()
            fileSystem.inject(.rename, errno: EIO, repeating: true)
            // Dropped without close(), as a crash leaves it: the manifest was never written.
            _ = try PersistentState(
                file: file, loaded: loaded, journaling: NoteChange.self, history: HistoryTests.history,
                scheduler: ManualPersistenceScheduler())
        }
        let manifest = try String(
            contentsOfFile: directory.file("notebook.json.history/manifest.json"), encoding: .utf8)
        #expect(!manifest.contains(prefix))

        let reopened = try openJournaled(try notebookFile(directory), history: HistoryTests.history)
        let status = try #require(reopened.historyStatus)
        #expect(status.damaged.isEmpty && status.snapshotCount == 2, "\(status)")
        #expect(status.oldestRevision == 0)
        #expect(reopened.read { $0.notes.map(\.id) } == ["n1", "n2", "n3"])
    }
}
