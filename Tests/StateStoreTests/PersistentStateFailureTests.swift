import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import TestSupport
import Testing

@Suite("PersistentState: failed saves, backoff and recovery", .timeLimit(.minutes(1)))
struct PersistentStateFailureTests {
    static let backoff = RetryBackoff(initial: .seconds(1), maximum: .seconds(4))

    @Test func backoffDoublesUpToTheMaximum() {
        #expect((1...5).map { Self.backoff.delay(afterFailures: $0) } == [1, 2, 4, 4, 4].map { .seconds($0) })
    }

    @Test func aFailedSaveIsReportedRetriedWithBackoffAndClearedByASuccess() async throws {
        let harness = try PersistenceHarness(configuration: PersistenceConfiguration(retryBackoff: Self.backoff))
        defer { harness.remove() }
        harness.fileSystem.inject(.fsync, errno: EIO, repeating: true)
        let revision = try harness.addNote(1)
        let probe = DurabilityProbe(harness.state, revision: revision)
        harness.scheduler.advance(by: .milliseconds(500))
        let outcome = await probe.wait()
        guard case .failure(.saveFailed(_, revision, _)) = outcome else {
            Issue.record("the waiter got \(String(describing: outcome))")
            return
        }
        await harness.waitUntilIdle()
        var status = harness.state.status
        #expect(status.isDirty && status.consecutiveFailures == 1 && status.savesFailed == 1)
        #expect(status.lastErrorDate == harness.scheduler.date)
        guard case .saveFailed(_, 1, .writeFailed(let write)) = status.lastError else {
            Issue.record("unexpected error \(String(describing: status.lastError))")
            return
        }
        #expect(write.stage == .fsync)
        // Each retry waits longer, up to the maximum; each one starts over with a new temporary file.
        for (attempt, delay) in [(2, 1), (3, 2), (4, 4), (5, 4)] {
            #expect(harness.scheduler.nextTimerDelay == .seconds(delay))
            harness.scheduler.advance(by: .seconds(delay) - .milliseconds(1))
            #expect(harness.fileSystem.count(of: .create) == attempt - 1)
            harness.scheduler.advance(by: .milliseconds(1))
            await waitForFailures(harness, attempt)
            await harness.waitUntilIdle()
            #expect(harness.fileSystem.count(of: .create) == attempt)
            #expect(harness.fileSystem.count(of: .fsync) == attempt)
        }
        harness.fileSystem.clearFaults()
        harness.scheduler.advance(by: .seconds(4))
        try await harness.state.waitUntilDurable(revision, timeout: .seconds(10))
        await harness.waitUntilIdle()
        status = harness.state.status
        #expect(!status.isDirty && status.lastError == nil && status.lastErrorDate == nil)
        #expect(status.consecutiveFailures == 0 && status.savesFailed == 5 && status.savesPerformed == 1)
        #expect(harness.events.all.last == .saveRecovered(revision: revision, failures: 5))
        #expect(try harness.storedNoteIDs() == ["n1"])
        #expect(try harness.directory.names() == [".notebook.json.lock", "notebook.json"])
    }

    @Test func aWaiterWhoAsksAfterTheSaveFailedGetsThatFailureAtOnce() async throws {
        let harness = try PersistenceHarness(configuration: PersistenceConfiguration(retryBackoff: Self.backoff))
        defer { harness.remove() }
        harness.fileSystem.inject(.fsync, errno: EIO)
        let revision = try harness.addNote(1)
        harness.scheduler.advance(by: .milliseconds(500))
        await waitForFailures(harness, 1)
        await harness.waitUntilIdle()
        // The retry waits for the backoff on the manual clock, which does not move: without the rule the wait
        // would time out instead of failing.
        await #expect {
            try await harness.state.waitUntilDurable(revision, timeout: .seconds(5))
        } throws: { error in
            guard case .saveFailed(_, let failed, _) = error as? PersistenceError else { return false }
            return failed == revision
        }
        // A change after the failure waits for its own save.
        let later = try harness.addNote(2)
        let probe = DurabilityProbe(harness.state, revision: later)
        harness.scheduler.advance(by: .seconds(1))
        guard case .success = await probe.wait() else {
            Issue.record("the later change did not become durable with the retry")
            return
        }
    }

    @Test func changesDuringBackoffDoNotHammerAFailingDisk() async throws {
        let harness = try PersistenceHarness(configuration: PersistenceConfiguration(retryBackoff: Self.backoff))
        defer { harness.remove() }
        harness.fileSystem.inject(.rename, errno: EIO)
        try harness.addNote(1)
        harness.scheduler.advance(by: .milliseconds(500))
        await waitForFailures(harness, 1)
        await harness.waitUntilIdle()
        try harness.addNote(2)
        harness.scheduler.advance(by: .milliseconds(900))  // past the debounce, not past the backoff
        #expect(harness.fileSystem.count(of: .create) == 1)
        harness.scheduler.advance(by: .milliseconds(100))
        try await harness.state.waitUntilDurable(2, timeout: .seconds(10))
        #expect(try harness.storedNoteIDs() == ["n1", "n2"])
    }

    @Test func aDirectoryFsyncFailureIsAFailedSave() async throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        harness.fileSystem.inject(.fsyncDirectory, errno: EIO)
        let revision = try harness.addNote(1)
        let probe = DurabilityProbe(harness.state, revision: revision)
        harness.scheduler.advance(by: .milliseconds(500))
        guard case .failure(.saveFailed(_, _, .writeFailed(let write))) = await probe.wait() else {
            Issue.record("the waiter did not get the write error")
            return
        }
        #expect(write.stage == .directorySync && write.newContentMayBeVisible)
        #expect(harness.state.status.durableRevision == 0)
    }

    private func waitForFailures(_ harness: PersistenceHarness, _ count: Int) async {
        _ = await eventually { harness.state.status.savesFailed >= count }
    }
}
