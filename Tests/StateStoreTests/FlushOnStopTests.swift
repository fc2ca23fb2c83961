import Dispatch
import Foundation
import StateStore
import StateStoreTesting
import Synchronization
import TestSupport
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
    @Test func aStopSignalClosesFlushesAndReportsTheDurableRevision() async throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        let events = StopEvents()
        harness.state.flushOnStop(signals: [SIGUSR1], exitsProcess: false) { events.append($0) }
        try harness.addNote(1)
        try harness.addNote(2)
        #expect(harness.state.status.durableRevision == 0)
        kill(getpid(), SIGUSR1)
        let all = await events.wait(count: 2)
        #expect(all.map(\.exitStatus) == [nil, 0])
        guard case .flushed(let signal, let revision) = all.last else {
            Issue.record("no flush: \(all)")
            return
        }
        #expect(signal == SIGUSR1 && revision == 2)
        #expect(try harness.storedNoteIDs() == ["n1", "n2"])
        #expect(throws: PersistenceError.closed(path: harness.file.path)) { try harness.addNote(3) }
    }

    @Test func aFailedFlushOnStopExitsWithEXIOERR() async throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        let events = StopEvents()
        harness.state.flushOnStop(signals: [SIGUSR2], exitsProcess: false) { events.append($0) }
        try harness.addNote(1)
        harness.fileSystem.inject(.fsync, errno: EIO, repeating: true)
        kill(getpid(), SIGUSR2)
        let all = await events.wait(count: 2)
        guard case .flushFailed(SIGUSR2, .saveFailed(_, 1, _)) = all.last else {
            Issue.record("not a failed flush of revision 1: \(all)")
            return
        }
        #expect(all.last?.exitStatus == 74)
        #expect(!FileManager.default.fileExists(atPath: harness.directory.file("notebook.json")))
    }

    /// A signal that comes after the disposition changed and before libdispatch registered the source (the window
    /// `afterArming` stands in for) is held by the latch and handled before `init` returns, exactly once.
    ///
    /// The signal is raised at this thread with it unblocked, so that the latch has caught it when `raise`
    /// returns. `kill(getpid(), …)` from a thread that blocks the signal (every libdispatch worker does, and tests
    /// run on them) leaves it pending for another thread to take: under load that thread ran only after the
    /// sources had registered, libdispatch's handler got the signal instead of the latch and passed it to the
    /// source after `init` returned, and the test's second signal merged with the still pending first.
    @Test func aSignalInTheRegistrationWindowIsHandledOnceBeforeInitReturns() async {
        let received = Mutex<[Int32]>([])
        let sources = SignalSources(
            [SIGWINCH], label: "test.window", afterArming: { Self.raiseUnblocked(SIGWINCH) },
            handler: { number in received.withLock { $0.append(number) } })
        #expect(received.withLock { $0 } == [SIGWINCH])
        kill(getpid(), SIGWINCH)
        sources.queue.sync {}
        _ = await eventually { received.withLock { $0.count } >= 2 }
        #expect(received.withLock { $0 } == [SIGWINCH, SIGWINCH])
    }

    /// Without the wait in `init`, a signal caught in the window stays in the latch while the caller goes on, and
    /// `completeRegistration()` hands it over once before it returns; a second call does nothing. (SIGURG: a
    /// signal no other test takes, since a second set of sources for one signal would never see libdispatch
    /// install its handler again.)
    @Test func aDeferredRegistrationHandsTheCaughtSignalOverWhenItCompletes() async {
        let received = Mutex<[Int32]>([])
        let sources = SignalSources(
            [SIGURG], label: "test.deferred", afterArming: { Self.raiseUnblocked(SIGURG) },
            waitsForRegistration: false, handler: { number in received.withLock { $0.append(number) } })
        sources.queue.sync {}
        #expect(received.withLock { $0 } == [], "held by the latch, not handed over yet")
        sources.completeRegistration()
        #expect(received.withLock { $0 } == [SIGURG])
        sources.completeRegistration()
        sources.queue.sync {}
        #expect(received.withLock { $0 } == [SIGURG])
        kill(getpid(), SIGURG)
        _ = await eventually { received.withLock { $0.count } >= 2 }
        #expect(received.withLock { $0 } == [SIGURG, SIGURG], "the source receives the signals after it")
    }

    /// Raises `signal` at the calling thread with the signal unblocked there, so that its handler has run when
    /// this returns; the thread's mask is restored.
    private static func raiseUnblocked(_ signal: Int32) {
        var unblock = sigset_t()
        var previous = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, signal)
        pthread_sigmask(SIG_UNBLOCK, &unblock, &previous)
        raise(signal)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
}

/// The events a stop observer got, and a bounded wait for them.
private final class StopEvents: Sendable {
    private let events = Mutex<[StopFlushEvent]>([])

    func append(_ event: StopFlushEvent) {
        events.withLock { $0.append(event) }
    }

    /// The events once `count` of them came, or those that came within ten seconds; awaited, holding no thread.
    func wait(count: Int) async -> [StopFlushEvent] {
        _ = await eventually(timeout: .seconds(10)) { events.withLock { $0.count } >= count }
        return events.withLock { $0 }
    }
}
