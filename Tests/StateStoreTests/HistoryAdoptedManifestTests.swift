import Foundation
import StateStoreSample
import StateStoreTesting
import Synchronization
import Testing

@testable import StateStore

/// A save moves its segment into the history without rewriting the manifest, so the next start adopts it. The
/// start keeps the adopted records in memory and writes the manifest after it is over, syncing the file system
/// first (the moved segment had no fsync of its own), instead of on its way to `READY=1`.
@Suite struct HistoryAdoptedManifestTests {
    /// A first run whose saves move segments into the history and keep no snapshot after the first; returns the
    /// names of the history's files the manifest on disk does not list.
    func firstRunLeavingSegmentsUnlisted(_ directory: TemporaryDirectory) throws -> [String] {
        let file = try notebookFile(directory)
        defer { file.unlock() }
        let state = try openJournaled(file, history: HistoryTests.history)
        try state.saveSynchronously()
        for index in 1...3 { try state.apply(NoteChange.add(id: "n\(index)", title: "note \(index)")) }
        try state.saveSynchronously()
        try state.close()
        let manifest = try manifestText(directory)
        return try historyNames(directory).filter { $0.hasPrefix("journal.") && !manifest.contains($0) }
    }

    func manifestText(_ directory: TemporaryDirectory) throws -> String {
        try String(contentsOfFile: directory.file("notebook.json.history/manifest.json"), encoding: .utf8)
    }

    /// The file system calls of a start: those the start made (on its caller's thread, before it returned: the
    /// start is synchronous) and all others (the save queue's, and any made on the caller's thread afterwards, where
    /// a `sync` on the save queue may run its work), each in order.
    final class ThreadedCalls: Sendable {
        struct Call: Sendable {
            var operation: FaultInjectingFileSystem.Operation
            var path: String
        }
        let onTheStart = Mutex<[Call]>([])
        let elsewhere = Mutex<[Call]>([])
        let startReturned = Atomic<Bool>(false)
    }

    /// A start on `directory` through a file system that records which thread made each call.
    func start(
        _ directory: TemporaryDirectory
    ) throws -> (ThreadedCalls, StateFile<Notebook>, PersistentState<Notebook>) {
        let fileSystem = FaultInjectingFileSystem()
        let calls = ThreadedCalls()
        let startThread = pthread_self()
        fileSystem.setBeforeCall { operation, path in
            let call = ThreadedCalls.Call(operation: operation, path: path)
            if pthread_equal(pthread_self(), startThread) != 0, !calls.startReturned.load(ordering: .acquiring) {
                calls.onTheStart.withLock { $0.append(call) }
            } else {
                calls.elsewhere.withLock { $0.append(call) }
            }
        }
        let file = try notebookFile(directory, fileSystem: fileSystem)
        let state = try PersistentState(
            file: file, loaded: try file.load(), journaling: NoteChange.self, history: HistoryTests.history,
            scheduler: ManualPersistenceScheduler())
        calls.startReturned.store(true, ordering: .releasing)
        return (calls, file, state)
    }

    /// Checks that the start did not write the manifest on its own thread, that the history it reports holds
    /// `adopted`, and that the save queue's work after the start wrote the manifest listing them, after a
    /// syncfs(2) (recorded as a sync of the history's directory before the manifest's rename).
    func expectTheManifestWrittenAfterTheStart(
        _ calls: ThreadedCalls, _ state: PersistentState<Notebook>, adopted: [String], directory: TemporaryDirectory
    ) throws {
        let history = directory.file("notebook.json.history")
        let onTheStart = calls.onTheStart.withLock { $0 }
        #expect(
            !onTheStart.contains { $0.operation == .rename && $0.path.hasSuffix("/manifest.json") },
            "the start wrote the manifest: \(onTheStart.map { "\($0.operation) \($0.path)" })")
        let archive = try #require(state.history)
        let listed = archive.state.withLock { Set($0.manifest.files.map(\.name)) }
        #expect(adopted.allSatisfy(listed.contains), "\(listed)")
        #expect(try #require(state.historyStatus).damaged.isEmpty)

        state.saveQueue.sync {}  // the work queued after the start has run
        let after = calls.elsewhere.withLock { $0 }
        let rename = try #require(
            after.firstIndex { $0.operation == .rename && $0.path.hasSuffix("/manifest.json") },
            "no manifest written after the start: \(after.map { "\($0.operation) \($0.path)" })")
        #expect(after[..<rename].contains { $0.operation == .fsyncDirectory && $0.path == history })
        let manifest = try manifestText(directory)
        #expect(adopted.allSatisfy(manifest.contains), "\(manifest)")
    }

    @Test func aRestartAdoptsTheMovedSegmentAndRecordsItAfterTheStart() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let adopted = try firstRunLeavingSegmentsUnlisted(directory)
        try #require(!adopted.isEmpty, "the first run's saves left no segment for the next start to adopt")

        do {
            let (calls, file, state) = try start(directory)
            defer { file.unlock() }
            try expectTheManifestWrittenAfterTheStart(calls, state, adopted: adopted, directory: directory)
            try state.close()
        }
        let reopened = try openJournaled(try notebookFile(directory), history: HistoryTests.history)
        #expect(try #require(reopened.historyStatus).damaged.isEmpty)
        #expect(reopened.read { $0.notes.map(\.id) } == ["n1", "n2", "n3"])
        try reopened.close()
        reopened.file.unlock()
    }

    /// A start that keeps no snapshot (the history has the file's revision already) still writes what its open
    /// adopted once it is over.
    @Test func aStartThatKeepsNoSnapshotStillRecordsWhatItAdopted() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try firstRunLeavingSegmentsUnlisted(directory)
        do {
            // A restart keeps the file's revision as a snapshot and records everything after it.
            let file = try notebookFile(directory)
            defer { file.unlock() }
            let state = try openJournaled(file, history: HistoryTests.history)
            state.saveQueue.sync {}
            try state.close()
        }
        // The manifest lost: the next start adopts every file, and the file's snapshot is there already.
        let manifestPath = directory.file("notebook.json.history/manifest.json")
        let stale = #"{"files":[],"history":1}"#
        try Data(stale.utf8).write(to: URL(fileURLWithPath: manifestPath))
        let adopted = try historyNames(directory).filter { $0 != "manifest.json" }
        try #require(adopted.contains { $0.hasPrefix("snapshot.") })

        let (calls, file, state) = try start(directory)
        defer { file.unlock() }
        #expect(
            !calls.onTheStart.withLock { $0 }.contains { $0.operation == .link }, "the start kept a snapshot")
        try expectTheManifestWrittenAfterTheStart(calls, state, adopted: adopted, directory: directory)
        try state.close()
    }
}
