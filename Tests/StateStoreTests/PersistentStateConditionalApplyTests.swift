import Dispatch
import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Synchronization
import TestSupport
import Testing

@Suite("PersistentState: changes expecting a revision, callbacks in revision order, saving unchanged state")
struct PersistentStateConditionalApplyTests {
    @Test func aChangeExpectingTheCurrentRevisionIsApplied() throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        try harness.addNote(1)
        let applied = try harness.state.apply(expecting: { $0 == 1 }) { $0.notes.removeAll() }
        #expect(applied.revision == 2)
        #expect(harness.state.read { $0.notes.isEmpty })
    }

    @Test func aChangeExpectingAnotherRevisionChangesNothingAndNamesTheCurrentOne() throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        try harness.addNote(1)
        try harness.addNote(2)
        var ran = false
        #expect(throws: PersistenceError.revisionMismatch(path: harness.file.path, current: 2)) {
            try harness.state.apply(expecting: { $0 == 1 }) { notebook in
                ran = true
                notebook.notes.removeAll()
            }
        }
        #expect(!ran)
        #expect(harness.state.status.revision == 2)
        #expect(harness.state.read { $0.notes.map(\.id) } == ["n1", "n2"])
    }

    @Test func theAppliedCallbackRunsOnceInRevisionOrderUnderConcurrency() throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        let seen = RevisionList()
        DispatchQueue.concurrentPerform(iterations: 400) { index in
            _ = try? harness.state.apply(
                { $0.notes.append(Note(id: "n\(index)", title: "t", kind: .text, tags: [])) },
                applied: { seen.append($0.revision) })
        }
        #expect(seen.all == Array(1...400))
    }

    @Test func aRefusedOrFailedChangeDoesNotCallTheAppliedCallback() throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        let calls = RevisionList()
        struct Refusal: Error {}
        #expect(throws: Refusal.self) {
            try harness.state.apply(
                { (_: inout Notebook) throws(Refusal) in throw Refusal() }, applied: { calls.append($0.revision) }
            )
        }
        #expect(throws: PersistenceError.self) {
            try harness.state.apply(expecting: { _ in false }, { _ in }, applied: { calls.append($0.revision) })
        }
        #expect(calls.all.isEmpty)
    }

    @Test func atCurrentRevisionSeesNoChangeWhileItRuns() async throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        try harness.addNote(1)
        // The semaphores are the test: the change blocks on the state's lock while `atCurrentRevision` holds it. Both
        // sides block threads of their own, off the cooperative pool.
        let started = DispatchSemaphore(value: 0)
        let changed = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            started.wait()
            _ = try? harness.addNote(2)
            changed.signal()
        }
        let (revision, changedMeanwhile) = await offThePool {
            harness.state.atCurrentRevision { revision in
                started.signal()
                // The change is blocked on the lock held here, so it cannot finish in these 100 ms.
                return (revision, changed.wait(timeout: .now() + .milliseconds(100)) == .success)
            }
        }
        #expect(revision == 1)
        #expect(!changedMeanwhile)
        #expect(await offThePool { changed.wait(timeout: .now() + .seconds(10)) } == .success)
        #expect(harness.state.status.revision == 2)
    }

    @Test func saveSynchronouslyWritesACleanStateAtItsRevision() throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        try harness.addNote(1)
        try harness.state.flushSynchronously()
        let creates = harness.fileSystem.count(of: .create)
        try harness.state.flushSynchronously()
        #expect(harness.fileSystem.count(of: .create) == creates)  // a flush of a clean state writes nothing
        try harness.state.saveSynchronously()
        #expect(harness.fileSystem.count(of: .create) == creates + 1)
        #expect(harness.state.status.revision == 1 && harness.state.status.durableRevision == 1)
        #expect(harness.state.status.savesPerformed == 2)
        #expect(try harness.storedNoteIDs() == ["n1"])
        #expect(harness.events.savedRevisions == [1, 1])
    }

    @Test func aFailedSaveSynchronouslyLeavesTheStateDirtyAndIsRetried() async throws {
        let harness = try PersistenceHarness(
            configuration: PersistenceConfiguration(
                retryBackoff: RetryBackoff(initial: .seconds(1), maximum: .seconds(1))))
        defer { harness.remove() }
        harness.fileSystem.inject(.fsync, errno: EIO)
        #expect(throws: PersistenceError.self) { try harness.state.saveSynchronously() }
        var status = harness.state.status
        #expect(status.isDirty && status.fileNeedsRewrite && status.revision == 0)
        // The retry is scheduled like any failed save's, and its success clears the need.
        #expect(harness.scheduler.nextTimerDelay == .seconds(1))
        harness.scheduler.advance(by: .seconds(1))
        await harness.waitUntilIdle()
        status = harness.state.status
        #expect(!status.isDirty && !status.fileNeedsRewrite && status.savesPerformed == 1)
        #expect(harness.events.savedRevisions == [0])
    }
}

/// Revisions a callback saw, in the order it saw them.
final class RevisionList: Sendable {
    private let revisions = Mutex<[UInt64]>([])

    func append(_ revision: UInt64) { revisions.withLock { $0.append(revision) } }

    var all: [UInt64] { revisions.withLock { $0 } }
}
