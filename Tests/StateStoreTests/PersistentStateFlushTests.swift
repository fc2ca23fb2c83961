import Dispatch
import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Synchronization
import TestSupport
import Testing

@Suite("PersistentState: synchronous flush and close", .timeLimit(.minutes(1)))
struct PersistentStateFlushTests {
    @Test func aFlushWritesAtOnceAndCancelsTheDebounce() throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        try harness.addNote(1)
        #expect(harness.scheduler.pendingTimerCount == 1)
        try harness.state.flushSynchronously()
        #expect(harness.state.status.durableRevision == 1)
        #expect(try harness.storedNoteIDs() == ["n1"])
        #expect(harness.scheduler.pendingTimerCount == 0)
        harness.scheduler.advance(by: .seconds(10))
        #expect(harness.state.status.savesPerformed == 1)
    }

    @Test func aSecondFlushAndAFlushOfACleanStateWriteNothing() throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        try harness.state.flushSynchronously()
        #expect(harness.fileSystem.count(of: .create) == 0)
        try harness.addNote(1)
        try harness.state.flushSynchronously()
        try harness.state.flushSynchronously()
        #expect(harness.fileSystem.count(of: .create) == 1)
        #expect(harness.state.status.savesPerformed == 1)
    }

    @Test func aFlushDuringASaveWaitsForItThenWritesTheLatestState() async throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        let gate = SaveGate(fileSystem: harness.fileSystem)
        try harness.addNote(1)
        harness.scheduler.advance(by: .milliseconds(500))
        #expect(await gate.waitUntilEntered())
        try harness.addNote(2)
        // The synchronous flush blocks its caller until save 1 is done, which the semaphore observes: the flush and
        // the waits run on threads of their own, off the cooperative pool.
        let flushed = DispatchSemaphore(value: 0)
        let result = ResultBox()
        Thread.detachNewThread {
            result.set(Result { () throws(PersistenceError) in try harness.state.flushSynchronously() })
            flushed.signal()
        }
        let early = await offThePool { flushed.wait(timeout: .now() + .milliseconds(50)) }
        #expect(early == .timedOut)  // still waiting for save 1
        gate.release()
        #expect(await offThePool { flushed.wait(timeout: .now() + 10) } == .success)
        #expect(result.isSuccess)
        #expect(harness.events.savedRevisions == [1, 2])
        #expect(harness.state.status.durableRevision == 2)
        #expect(try harness.storedNoteIDs() == ["n1", "n2"])
    }

    @Test func concurrentFlushesWriteOnce() async throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        let gate = SaveGate(fileSystem: harness.fileSystem)
        try harness.addNote(1)
        // Each synchronous flush blocks its caller until the gated save is done: each runs on a thread of its own,
        // and the group is waited for off the cooperative pool.
        let group = DispatchGroup()
        let results = (0..<3).map { _ in ResultBox() }
        for box in results {
            group.enter()
            Thread.detachNewThread {
                box.set(Result { () throws(PersistenceError) in try harness.state.flushSynchronously() })
                group.leave()
            }
        }
        #expect(await gate.waitUntilEntered())
        gate.release()
        #expect(await offThePool { group.wait(timeout: .now() + 10) } == .success)
        #expect(results.allSatisfy { $0.isSuccess })
        #expect(gate.createCount == 1)
    }

    @Test func aFailedFlushThrowsKeepsTheOldFileAndStaysDirty() throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        try harness.addNote(1)
        try harness.state.flushSynchronously()
        let before = try harness.directory.read("notebook.json")
        let revision = try harness.addNote(2)
        harness.fileSystem.inject(.fsync, errno: EIO)
        #expect {
            try harness.state.flushSynchronously()
        } throws: { error in
            guard case .saveFailed(_, revision, .writeFailed(let write)) = error as? PersistenceError else {
                return false
            }
            return write.stage == .fsync && write.underlying.errno == EIO
        }
        #expect(try harness.directory.read("notebook.json") == before)
        #expect(try harness.directory.names() == [".notebook.json.lock", "notebook.json"])
        let status = harness.state.status
        #expect(status.isDirty && status.consecutiveFailures == 1 && status.lastError != nil)
        try harness.state.flushSynchronously()  // a new temporary file, not a second fsync of the failed one
        #expect(harness.fileSystem.count(of: .create) == 3)
        #expect(try harness.storedNoteIDs() == ["n1", "n2"])
        #expect(harness.state.status.lastError == nil)
    }

    @Test func closeFlushesAndThenRefusesChanges() throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        let revision = try harness.addNote(1)
        try harness.state.close()
        #expect(harness.state.status.isClosed && harness.state.status.durableRevision == revision)
        #expect(throws: PersistenceError.closed(path: harness.file.path)) { try harness.addNote(2) }
        #expect(harness.state.status.revision == revision)
        #expect(harness.state.read { $0.notes.count } == 1)
        #expect(try harness.storedNoteIDs() == ["n1"])
        try harness.state.close()  // twice is harmless
        #expect(harness.state.status.savesPerformed == 1)
    }

    @Test func aCloseWhoseFlushFailsStillRefusesChangesAndCanBeFlushedAgain() throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        try harness.addNote(1)
        harness.fileSystem.inject(.rename, errno: EIO)
        #expect(throws: PersistenceError.self) { try harness.state.close() }
        #expect(throws: PersistenceError.closed(path: harness.file.path)) { try harness.addNote(2) }
        #expect(harness.scheduler.pendingTimerCount == 0)  // no background retry after close
        try harness.state.flushSynchronously()
        #expect(try harness.storedNoteIDs() == ["n1"])
        #expect(!harness.state.status.isDirty)
    }
}

/// The result of a flush run on another thread.
final class ResultBox: Sendable {
    private let value = Mutex<Result<Void, PersistenceError>?>(nil)
    func set(_ result: Result<Void, PersistenceError>) { value.withLock { $0 = result } }
    var isSuccess: Bool { value.withLock { if case .success = $0 { true } else { false } } }
}
