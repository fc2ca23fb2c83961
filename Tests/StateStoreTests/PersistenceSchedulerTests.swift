import Foundation
import StateStore
import StateStoreTesting
import Synchronization
import TestSupport
import Testing

@Suite("Persistence schedulers", .timeLimit(.minutes(1)))
struct PersistenceSchedulerTests {
    @Test func theManualSchedulerFiresDueTimersInDeadlineOrderAndNotCancelledOnes() {
        let scheduler = ManualPersistenceScheduler()
        let log = AckLog()
        let start = scheduler.now
        _ = scheduler.schedule(after: .seconds(2)) { log.append("b at \(scheduler.now - start)") }
        _ = scheduler.schedule(after: .seconds(1)) {
            log.append("a at \(scheduler.now - start)")
            _ = scheduler.schedule(after: .milliseconds(500)) { log.append("a2 at \(scheduler.now - start)") }
        }
        let cancelled = scheduler.schedule(after: .milliseconds(100)) { log.append("cancelled") }
        cancelled.cancel()
        scheduler.advance(by: .milliseconds(999))
        #expect(log.all.isEmpty)
        scheduler.advance(by: .seconds(2))
        #expect(log.all == ["a at 1.0 seconds", "a2 at 1.5 seconds", "b at 2.0 seconds"])
        #expect(scheduler.now - start == .milliseconds(2999))
        #expect(scheduler.pendingTimerCount == 0)
    }

    @Test func theDispatchSchedulerFiresAfterTheDelayAndCancelStopsIt() async {
        let scheduler = DispatchPersistenceScheduler()
        let fired = Flag()
        let cancelledRan = Flag()
        let start = ContinuousClock.now
        _ = scheduler.schedule(after: .milliseconds(20)) { fired.set() }
        let cancelled = scheduler.schedule(after: .milliseconds(10)) { cancelledRan.set() }
        cancelled.cancel()
        #expect(await eventually(timeout: .seconds(10)) { fired.isSet })
        #expect(ContinuousClock.now - start >= .milliseconds(20))
        #expect(!cancelledRan.isSet)
    }

    @Test func waitingOnAClosedStateForARevisionThatWillNotBeSavedFails() async throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        let revision = try harness.addNote(1)
        harness.fileSystem.inject(.create, errno: ENOSPC)
        #expect(throws: PersistenceError.self) { try harness.state.close() }
        await #expect(throws: PersistenceError.closedBeforeDurable(path: harness.file.path, revision: revision)) {
            try await harness.state.waitUntilDurable(revision, timeout: .seconds(10))
        }
    }
}
