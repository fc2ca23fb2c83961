import Dispatch
import Foundation
import StateStore
import StateStoreTesting
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `PersistentState.flushOnStop` and the `SignalSources` under it, in this process with real signals: each test
/// has a signal of its own (the sources live as long as the process), and `exitsProcess: false` keeps the test
/// process alive. Signals are sent to the process (`kill`), not raised: the test runs on a thread that blocks them.
/// The SIGTERM path with the exit is CrashTests' (StateStoreCrashTester's stop is this helper).
@Suite("PersistentState.flushOnStop: the flush on a stop signal", .timeLimit(.minutes(1)))
struct FlushOnStopTests {
    @Test func aStopSignalClosesFlushesAndReportsTheDurableRevision() throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        let events = StopEvents()
        harness.state.flushOnStop(signals: [SIGUSR1], exitsProcess: false) { events.append($0) }
        try harness.addNote(1)
        try harness.addNote(2)
        #expect(harness.state.status.durableRevision == 0)
        kill(getpid(), SIGUSR1)
        let all = events.wait(count: 2)
        #expect(all.map(\.exitStatus) == [nil, 0])
        guard case .flushed(let signal, let revision) = all.last else {
            Issue.record("no flush: \(all)")
            return
        }
        #expect(signal == SIGUSR1 && revision == 2)
        #expect(try harness.storedNoteIDs() == ["n1", "n2"])
        #expect(throws: PersistenceError.closed(path: harness.file.path)) { try harness.addNote(3) }
    }

    @Test func aFailedFlushOnStopExitsWithEXIOERR() throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        let events = StopEvents()
        harness.state.flushOnStop(signals: [SIGUSR2], exitsProcess: false) { events.append($0) }
        try harness.addNote(1)
        harness.fileSystem.inject(.fsync, errno: EIO, repeating: true)
        kill(getpid(), SIGUSR2)
        let all = events.wait(count: 2)
        guard case .flushFailed(SIGUSR2, .saveFailed(_, 1, _)) = all.last else {
            Issue.record("not a failed flush of revision 1: \(all)")
            return
        }
        #expect(all.last?.exitStatus == 74)
        #expect(!FileManager.default.fileExists(atPath: harness.directory.file("notebook.json")))
    }

    /// A signal that comes after the disposition changed and before libdispatch registered the source (the window
    /// `afterArming` stands in for) is held by the latch and handled before `init` returns, exactly once.
    @Test func aSignalInTheRegistrationWindowIsHandledOnceBeforeInitReturns() {
        let received = Mutex<[Int32]>([])
        let sources = SignalSources(
            [SIGWINCH], label: "test.window", afterArming: { kill(getpid(), SIGWINCH) },
            handler: { number in received.withLock { $0.append(number) } })
        #expect(received.withLock { $0 } == [SIGWINCH])
        kill(getpid(), SIGWINCH)
        sources.queue.sync {}
        let deadline = ContinuousClock.now + .seconds(10)
        while received.withLock({ $0.count }) < 2 && ContinuousClock.now < deadline { usleep(1_000) }
        #expect(received.withLock { $0 } == [SIGWINCH, SIGWINCH])
    }
}

/// The events a stop observer got, and a bounded wait for them.
private final class StopEvents: Sendable {
    private let events = Mutex<[StopFlushEvent]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func append(_ event: StopFlushEvent) {
        events.withLock { $0.append(event) }
        arrived.signal()
    }

    /// The events once `count` of them came, or those that came within ten seconds.
    func wait(count: Int) -> [StopFlushEvent] {
        for _ in 0..<count where arrived.wait(timeout: .now() + 10) == .timedOut { break }
        return events.withLock { $0 }
    }
}
