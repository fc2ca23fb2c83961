import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Testing

/// Issue 47: changes replayed from the journal are a state like any other. After a crash before the first snapshot
/// there is no state file; the start replays the journal and schedules the snapshot as a change would, after the
/// debounce (500 ms by default) and at most the maximum delay, instead of waiting for the next change.
@Suite struct ReplaySnapshotTests {
    @Test func replayedChangesWithoutAStateFileAreWrittenAfterTheDebounce() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        do {
            let file = try notebookFile(directory)
            let state = try openJournaled(file)
            try state.apply(NoteChange.add(id: "n1", title: "first"))
            try state.apply(NoteChange.add(id: "n2", title: "second"))
            #expect(!FileManager.default.fileExists(atPath: directory.file("notebook.json")))
            file.unlock()  // a crash: no close, no flush
        }
        let scheduler = ManualPersistenceScheduler()
        let reopened = try openJournaled(try notebookFile(directory), scheduler: scheduler)
        #expect(reopened.journalReplay?.recordsReplayed == 2)
        #expect(reopened.status.isDirty && reopened.status.savedRevision == 0, "the start itself writes nothing")
        scheduler.advance(by: .milliseconds(499))
        #expect(!reopened.status.isSaving && reopened.status.savedRevision == 0)
        scheduler.advance(by: .milliseconds(1))  // the debounce is over: the snapshot starts in the background
        let deadline = ContinuousClock.now + .seconds(20)
        while reopened.status.savedRevision < 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(reopened.status.savedRevision == 2)
        let stored = try jsonObject(try directory.read("notebook.json"))
        #expect((stored["notes"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["n1", "n2"])
        try reopened.close()
    }
}

extension ReplaySnapshotTests {
    /// Found by the SIGKILL torture under load: two crashes in a row give three lineages (A, B relabelling A, C
    /// relabelling B). C's start snapshots its replayed state before any change, so C's segment holds only its
    /// header; a kill before the snapshot's compaction leaves A's and B's segments beside the new file. The next
    /// start must read C's header to know that A and B are its ancestors, and skip their records as already in
    /// the snapshot, not keep them aside as another lineage's.
    @Test func aSnapshotBeforeAnyChangeThenACrashBeforeItsCompactionReplaysCleanly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for round in 0..<2 {
            let file = try notebookFile(directory)
            let state = try openJournaled(file)
            try state.apply(NoteChange.add(id: "n\(round)", title: "t"))
            file.unlock()  // a crash: no snapshot, both lineages' segments stay
        }
        let left = try journalNames(directory).map { ($0, try directory.read($0)) }
        #expect(left.count == 2, "\(left.map(\.0))")
        let file = try notebookFile(directory)
        let third = try openJournaled(file)
        #expect(third.journalReplay?.recordsReplayed == 2)
        try third.flushSynchronously()  // the snapshot at the replayed revision, before any change
        // A crash between the snapshot's rename and the removal of the segments it holds.
        for (name, bytes) in left { try directory.write(name, bytes) }
        file.unlock()
        let fourth = try openJournaled(try notebookFile(directory))
        let replay = try #require(fourth.journalReplay)
        #expect(replay.keptAside.isEmpty && replay.stopReason == nil, "\(replay)")
        #expect(replay.recordsReplayed == 0 && replay.recordsAlreadyInSnapshot == 2, "\(replay)")
        #expect(fourth.read { $0.notes.map(\.id) } == ["n0", "n1"])
    }
}
