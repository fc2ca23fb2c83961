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
