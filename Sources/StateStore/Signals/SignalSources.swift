import CSignalLatch
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Dispatch signal sources for a set of signals (SIGTERM and SIGINT for a service's stop), installed so that no
/// signal is lost or fatal while they register: install them first, before anything can take time.
///
/// A handler gets each signal's number, one at a time on one serial queue (``queue``), so a second signal during a
/// flush waits behind it. The handler given to `init` is the one until ``setHandler(_:)`` replaces it; a signal
/// caught while the sources registered is handed to it before `init` returns.
///
/// Signal sources live as long as the process: the sources hold this object, so dropping the value returned by
/// `init` does not remove them.
///
/// Most services need only ``PersistentState/flushOnStop(signals:exitsProcess:observer:)``, which installs these
/// for SIGTERM and SIGINT and makes every accepted change durable before the process exits.
public final class SignalSources: Sendable {
    /// The serial queue the handler runs on: a plain thread, where a synchronous flush may block.
    public let queue: DispatchQueue
    /// The signals these sources receive.
    public let signals: [Int32]
    private let handler: Mutex<@Sendable (Int32) -> Void>
    /// The sources, kept so that they live; never changed after `init`.
    private nonisolated(unsafe) var sources: [any DispatchSourceSignal] = []
    /// The signals whose latch ``completeRegistration()`` has yet to release; `nil` once it ran.
    private let unreleased: Mutex<[Int32]?>

    /// Takes `signals` from their default actions and starts a Dispatch source for each; returns once the sources
    /// receive them.
    ///
    /// - Parameters:
    ///   - signals: The signal numbers, e.g. `[SIGTERM, SIGINT]`.
    ///   - label: The label of ``queue``.
    ///   - handler: Called with each signal's number on ``queue``.
    public convenience init(
        _ signals: [Int32], label: String = "StateStore.signals", handler: @escaping @Sendable (Int32) -> Void
    ) {
        self.init(signals, label: label, afterArming: {}, handler: handler)
    }

    /// Until libdispatch has registered a source, the signal's disposition is a latch (CSignalLatch) rather than
    /// SIG_IGN: libdispatch registers a source on its manager thread some time after `resume()`, and the kernel
    /// discards a signal that comes meanwhile to SIG_IGN (a SIGTERM during start-up would be lost and a daemon
    /// would run on). Once libdispatch's handler replaced the latch, what the latch caught is delivered like a
    /// source's event.
    ///
    /// - Parameters:
    ///   - afterArming: Runs between arming the latch and creating the sources (tests widen the window with it).
    ///   - waitsForRegistration: When `false`, `init` returns once the sources are created, and the caller calls
    ///     ``completeRegistration()`` later: libdispatch registers them on its manager thread meanwhile, beside
    ///     whatever the caller does, and the latch holds a signal that comes in between.
    package init(
        _ signals: [Int32], label: String, afterArming: () -> Void, waitsForRegistration: Bool = true,
        handler: @escaping @Sendable (Int32) -> Void
    ) {
        self.signals = signals
        self.handler = Mutex(handler)
        let queue = DispatchQueue(label: label)
        self.queue = queue
        let armed = signals.filter { wsd_signal_latch_arm($0) != 0 }
        unreleased = Mutex(armed)
        afterArming()
        sources = signals.map { DispatchSource.makeSignalSource(signal: $0, queue: queue) }
        for (number, source) in zip(signals, sources) {
            // Strong: the sources and this object live as long as the process.
            source.setEventHandler { self.deliver(number) }
            source.resume()
        }
        if waitsForRegistration { completeRegistration() }
    }

    /// Waits until libdispatch registered the sources, then hands a signal the latch caught meanwhile to the
    /// handler, on ``queue``, before it returns; the calls after the first return at once. Call it before the
    /// program does anything a stop must come before (accepting a change, saying it is ready); never on
    /// ``queue``.
    package func completeRegistration() {
        guard let armed = unreleased.withLock({ $0.take() }) else { return }
        Self.waitForRegistration(of: armed)
        // Delivered before this returns: handed to the queue asynchronously instead, it waited for a worker
        // thread, and on a loaded machine the program could go on for a while (workspaced could load, serve and
        // send READY=1 before its late stop). Synchronously on the queue, so that a signal the sources already
        // passed to it is handled first.
        for number in armed where wsd_signal_latch_release(number) != 0 {
            queue.sync { deliver(number) }
        }
    }

    /// Waits until libdispatch's handler replaced the latch for every signal in `numbers` (a millisecond or two;
    /// at most ten seconds on a machine too loaded to register them, after which the release falls back to
    /// SIG_IGN).
    private static func waitForRegistration(of numbers: [Int32]) {
        let deadline = DispatchTime.now() + .seconds(10)
        while !numbers.allSatisfy({ wsd_signal_latch_replaced($0) != 0 }), DispatchTime.now() < deadline {
            usleep(100)
        }
    }

    /// Replaces the handler; signals that arrive from now on go to it, on ``queue``.
    public func setHandler(_ newHandler: @escaping @Sendable (Int32) -> Void) {
        handler.withLock { $0 = newHandler }
    }

    private func deliver(_ number: Int32) {
        let current = handler.withLock { $0 }
        current(number)
    }
}
