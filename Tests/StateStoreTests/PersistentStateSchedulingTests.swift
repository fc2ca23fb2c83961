import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Synchronization
import TestSupport
import Testing

@Suite("PersistentState: changes, revisions and debounced saves", .timeLimit(.minutes(1)))
struct PersistentStateSchedulingTests {
    @Test func changesGetIncreasingRevisionsAndAThrowingChangeChangesNothing() throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        #expect(try harness.addNote(1) == 1)
        #expect(try harness.addNote(2) == 2)
        #expect(throws: RejectedChange.self) {
            try harness.state.apply { notebook throws(RejectedChange) in
                notebook.notes.removeAll()
                notebook.author.givenName = "changed"
                throw RejectedChange()
            }
        }
        #expect(harness.state.status.revision == 2)
        #expect(harness.state.read { $0.notes.map(\.id) } == ["n1", "n2"])
        #expect(harness.state.read { $0.author.givenName } == "")
        let applied = try harness.state.apply { $0.notes.count }
        #expect(applied.value == 2 && applied.revision == 3)
        #expect(harness.state.snapshot.revision == 3)
    }

    @Test func aSaveWaitsForTheQuietPeriod() async throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        try harness.addNote(1)
        harness.scheduler.advance(by: .milliseconds(300))
        let revision = try harness.addNote(2)
        harness.scheduler.advance(by: .milliseconds(499))
        #expect(!harness.state.status.isSaving)
        #expect(harness.fileSystem.count(of: .create) == 0)
        harness.scheduler.advance(by: .milliseconds(1))
        let started = harness.state.status  // the save started now; on an idle machine it may be done already
        #expect(started.savingRevision == revision || started.durableRevision == revision)
        try await harness.state.waitUntilDurable(revision, timeout: .seconds(10))
        await harness.waitUntilIdle()
        let status = harness.state.status
        #expect(status.savesPerformed == 1 && status.durableRevision == 2 && !status.isDirty)
        #expect(status.changesCoalesced == 1)
        #expect(status.lastSaveDate == harness.scheduler.date)
        #expect(status.lastSaveDuration.map { $0 > .zero } == true)
        #expect(status.lastSnapshotDuration.map { $0 < .seconds(1) } == true)
        #expect(status.lastSaveByteCount == (try harness.directory.read("notebook.json")).count)
        #expect(harness.events.all.count == 1)
        #expect(try harness.storedNoteIDs() == ["n1", "n2"])
        #expect(harness.scheduler.pendingTimerCount == 0)
    }

    @Test func aConstantStreamIsSavedAtTheMaximumDelay() async throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        let start = harness.scheduler.now
        var saveStarts: [(revision: UInt64, at: Duration)] = []
        for index in 0..<120 {  // a change every 100 ms for 12 s: never quiet for 500 ms
            try harness.addNote(index)
            harness.scheduler.advance(by: .milliseconds(100))
            // A save starts on the advance that fires its timer; on an idle machine it may also have finished
            // by now, so count finished saves too rather than only the one in flight.
            let status = harness.state.status
            let started = status.savesPerformed + status.savesFailed + (status.savingRevision == nil ? 0 : 1)
            if started > saveStarts.count {
                let revision = status.savingRevision ?? status.durableRevision
                saveStarts.append((revision, harness.scheduler.now - start))
                try await harness.state.waitUntilDurable(revision, timeout: .seconds(10))
                await harness.waitUntilIdle()
            }
        }
        #expect(saveStarts.map(\.at) == [.seconds(5), .seconds(10)])
        #expect(saveStarts.map(\.revision) == [50, 100])
        #expect(harness.state.status.savesPerformed == 2)
        harness.scheduler.advance(by: .milliseconds(500))
        try await harness.state.waitUntilDurable(120, timeout: .seconds(10))
        #expect(harness.state.status.savesPerformed == 3)
        #expect(harness.state.status.changesCoalesced == 117)
    }

    @Test func manyChangesAreCoalescedIntoOneWrite() async throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        for index in 1...100 { try harness.addNote(index) }
        harness.scheduler.advance(by: .milliseconds(500))
        try await harness.state.waitUntilDurable(100, timeout: .seconds(10))
        await harness.waitUntilIdle()
        #expect(harness.fileSystem.count(of: .rename) == 1)
        #expect(harness.state.status.savesPerformed == 1)
        #expect(harness.state.status.changesCoalesced == 99)
        #expect(try harness.storedNoteIDs().count == 100)
    }

    @Test func oneSaveInFlightAndChangesDuringItGoToTheNextSave() async throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        let gate = SaveGate(fileSystem: harness.fileSystem)
        try harness.addNote(1)
        harness.scheduler.advance(by: .milliseconds(500))
        #expect(await gate.waitUntilEntered())
        try harness.addNote(2)
        try harness.addNote(3)
        harness.scheduler.advance(by: .seconds(10))  // past the debounce and the maximum delay
        #expect(gate.createCount == 1)
        #expect(harness.state.status.savingRevision == 1)
        #expect(harness.scheduler.pendingTimerCount == 0)
        gate.release()
        // The first save finishes; the next is overdue, so it starts at once without the clock moving.
        try await harness.state.waitUntilDurable(3, timeout: .seconds(10))
        await harness.waitUntilIdle()
        #expect(harness.events.savedRevisions == [1, 3])
        #expect(harness.fileSystem.count(of: .create) == 2)
        #expect(try harness.storedNoteIDs() == ["n1", "n2", "n3"])
    }

    @Test func aDurableAcknowledgementComesAfterTheDirectoryFsyncAndInRevisionOrder() async throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        let log = AckLog()
        let gate = SaveGate(fileSystem: harness.fileSystem)
        try harness.addNote(1)
        harness.state.whenDurable(1) { _ in log.append("ack 1 after \(harness.fileSystem.calls.last!.operation)") }
        harness.scheduler.advance(by: .milliseconds(500))
        #expect(await gate.waitUntilEntered())
        let revision = try harness.addNote(2)
        harness.state.whenDurable(2) { _ in log.append("ack 2 after \(harness.fileSystem.calls.last!.operation)") }
        #expect(log.all.isEmpty)
        gate.release()
        try await harness.state.waitUntilDurable(1, timeout: .seconds(10))
        #expect(log.all == ["ack 1 after fsyncDirectory"])
        await harness.waitUntilIdle()
        harness.scheduler.advance(by: .milliseconds(500))  // revision 2 came at 500 ms: its quiet period
        try await harness.state.waitUntilDurable(revision)
        #expect(log.all == ["ack 1 after fsyncDirectory", "ack 2 after fsyncDirectory"])
        // The waiters are resumed before the observer hears of the save (a run without parallel tests read [1]
        // here): the events are complete once the save no longer counts as in flight.
        await harness.waitUntilIdle()
        #expect(harness.events.savedRevisions == [1, 2])
    }

    @Test func waitingForARevisionThatDoesNotExistFails() async throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        try await harness.state.waitUntilDurable(0)
        await #expect(throws: PersistenceError.unknownRevision(path: harness.file.path, requested: 5, latest: 0)) {
            try await harness.state.waitUntilDurable(5)
        }
    }

    @Test func aBlockingWaitTimesOut() async throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        let revision = try harness.addNote(1)
        // The blocking wait is what is under test: it blocks a thread of its own, not one of the cooperative pool.
        let waited = await offThePool {
            Result { () throws(PersistenceError) in
                try harness.state.waitUntilDurableBlocking(revision, timeout: .milliseconds(20))
            }
        }
        #expect(throws: PersistenceError.timedOut(path: harness.file.path, revision: revision)) { try waited.get() }
    }
}

/// Lines appended from callbacks.
final class AckLog: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
