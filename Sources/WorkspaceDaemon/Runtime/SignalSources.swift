import CSignalLatch
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Dispatch signal sources for SIGTERM, SIGINT and SIGHUP, installed before anything else at start-up so that
/// no signal can kill the process before its handler exists (which would hide a lost flush behind a clean stop),
/// and none is lost while the sources register.
///
/// Until a handler is set, a SIGTERM or SIGINT exits at once with status 0 (nothing was accepted yet) and a
/// SIGHUP is ignored; a signal caught while the sources registered is handled so before `init` returns. The
/// handler gets each signal as a ``LifecycleEvent``, one at a time on one serial queue (``queue``), so a second
/// signal during a flush waits behind it.
package final class SignalSources: Sendable {
    /// The queue the handler runs on.
    package let queue = DispatchQueue(label: "workspaced.signals")
    private let handler: Mutex<(@Sendable (LifecycleEvent) -> Void)?>
    /// Kept only to keep the sources alive; never changed after `init`.
    private nonisolated(unsafe) let sources: [any DispatchSourceSignal]

    /// Takes SIGTERM, SIGINT and SIGHUP from their default actions and starts a source for each; returns once
    /// the sources receive them.
    package convenience init() {
        self.init(afterArming: {})
    }

    /// The signals go to the latch (CSignalLatch) rather than to SIG_IGN: libdispatch registers a source on its
    /// manager thread some time after `resume()`, and the kernel discards a signal that comes meanwhile to
    /// SIG_IGN. Once libdispatch's handler replaced the latch, what it caught is delivered like a source's event.
    ///
    /// - Parameter afterArming: Runs between arming the latch and creating the sources (tests widen the window
    ///   with it).
    package init(afterArming: () -> Void) {
        handler = Mutex(nil)
        let numbers = [SIGTERM, SIGINT, SIGHUP]
        let armed = numbers.filter { wsd_signal_latch_arm($0) != 0 }
        afterArming()
        let queue = self.queue
        sources = numbers.map { DispatchSource.makeSignalSource(signal: $0, queue: queue) }
        for (number, source) in zip(numbers, sources) {
            source.setEventHandler { [weak self] in self?.deliver(number) }
            source.resume()
        }
        Self.waitForRegistration(of: armed)
        // Delivered before `init` returns, so with no handler yet: a stop exits here, before anything else has
        // run. Handed to the queue asynchronously instead, it waited for a worker thread, and on a loaded machine
        // the daemon could load, serve and send READY=1 first (then flush and exit 0 on the late stop).
        // Synchronously on the queue, so that a signal the sources already passed to it is handled first.
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

    /// Sets the handler; signals that arrive from now on go to it, on ``queue``.
    package func setHandler(_ newHandler: @escaping @Sendable (LifecycleEvent) -> Void) {
        handler.withLock { $0 = newHandler }
    }

    private func deliver(_ number: Int32) {
        let current = handler.withLock { $0 }
        switch (number, current) {
        case (SIGHUP, let handler?): handler(.reload)
        case (SIGHUP, nil): break
        case (_, let handler?): handler(.stop(signal: number))
        case (_, nil): exit(0)
        }
    }
}
