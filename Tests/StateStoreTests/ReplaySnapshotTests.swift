import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import TestSupport
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
        _ = await eventually { reopened.status.savedRevision >= 2 }
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

extension ReplaySnapshotTests {
    /// Found by the SIGKILL torture (seed 1795915191199, round 14): lineage E leaves a segment; B's start replays
    /// it, snapshots before any change (its `journal.2` holds only the header "B relabels E at 2") and is killed
    /// before that snapshot's compaction; C's start replays nothing, so its first segment takes `journal.2`'s name.
    /// The header it replaces was the only link from B (the file's lineage) to E: C retires E's segment first, or a
    /// kill before C's first snapshot leaves a journal no start continues (C's acknowledged changes kept aside).
    @Test(arguments: [false, true])
    func aFirstSegmentTakingTheNameOfTheLinkRetiresWhatTheLinkVouchedFor(history: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let retention = history ? HistoryConfiguration() : .off
        do {  // Lineage E: a snapshot at 1 starts journal.1; revision 2 goes in it; a kill.
            let file = try notebookFile(directory)
            let state = try openJournaled(file, history: retention)
            try state.apply(NoteChange.add(id: "n1", title: "t"))
            try state.flushSynchronously()
            try state.apply(NoteChange.add(id: "n2", title: "t"))
            file.unlock()
        }
        let leftover = ("notebook.json.journal.1", try directory.read("notebook.json.journal.1"))
        do {  // Lineage B: replays 2, starts journal.2 "B relabels E at 2", snapshots B@2 before any change…
            let file = try notebookFile(directory)
            let state = try openJournaled(file, history: retention)
            #expect(state.journalReplay?.recordsReplayed == 1)
            try state.flushSynchronously()
            // …and is killed before the compaction removed journal.1.
            try directory.write(leftover.0, leftover.1)
            file.unlock()
        }
        #expect(try journalNames(directory).sorted() == ["notebook.json.journal.1", "notebook.json.journal.2"])
        do {  // Lineage C: skips journal.1 (E is B's ancestor by journal.2's header), replays nothing; its first
            // segment is journal.2. One change acknowledged, then a kill before any snapshot.
            let file = try notebookFile(directory)
            let state = try openJournaled(file, history: retention)
            let replay = try #require(state.journalReplay)
            #expect(replay.keptAside.isEmpty && replay.recordsAlreadyInSnapshot >= 1, "\(replay)")
            try state.apply(NoteChange.add(id: "n3", title: "t"))
            file.unlock()
        }
        // E's segment went before the header linking B to E was replaced: into the history, or removed.
        #expect(try journalNames(directory) == ["notebook.json.journal.2"])
        if history {
            let kept = try FileManager.default.contentsOfDirectory(atPath: directory.file("notebook.json.history"))
            #expect(kept.contains { $0.hasPrefix("journal.1.") }, "\(kept)")
        }
        // What the next start would serve, looked at without changing anything: every acknowledged change.
        let look = try notebookFile(directory, configuration: StateFileConfiguration(locking: .none))
        let (model, replay) = try look.replayingJournal(NoteChange.self, onto: try look.load())
        #expect(replay.keptAside.isEmpty && replay.stopReason == nil, "\(replay)")
        #expect(model.notes.map(\.id) == ["n1", "n2", "n3"])
        // And a real start agrees.
        let file = try notebookFile(directory)
        defer { file.unlock() }
        let next = try openJournaled(file, history: retention)
        #expect(next.journalReplay?.keptAside.isEmpty == true)
        #expect(next.read { $0.notes.map(\.id) } == ["n1", "n2", "n3"])
    }
}
