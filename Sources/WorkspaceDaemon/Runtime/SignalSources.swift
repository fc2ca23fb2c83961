import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Dispatch signal sources for SIGTERM, SIGINT and SIGHUP, installed before anything else at start-up so that
/// no signal can kill the process before its handler exists (which would hide a lost flush behind a clean stop).
///
/// Until a handler is set, a SIGTERM or SIGINT exits at once with status 0 (nothing was accepted yet) and a
/// SIGHUP is ignored. The handler gets each signal as a ``LifecycleEvent``, one at a time on one serial queue
/// (``queue``), so a second signal during a flush waits behind it.
public final class SignalSources: Sendable {
    /// The queue the handler runs on.
    public let queue = DispatchQueue(label: "workspaced.signals")
    private let handler: Mutex<(@Sendable (LifecycleEvent) -> Void)?>
    /// Kept only to keep the sources alive; never changed after `init`.
    private nonisolated(unsafe) let sources: [any DispatchSourceSignal]

    /// Ignores the default actions of SIGTERM, SIGINT and SIGHUP and starts a source for each.
    public init() {
        handler = Mutex(nil)
        let numbers = [SIGTERM, SIGINT, SIGHUP]
        for number in numbers { signal(number, SIG_IGN) }
        let queue = self.queue
        sources = numbers.map { DispatchSource.makeSignalSource(signal: $0, queue: queue) }
        for (number, source) in zip(numbers, sources) {
            source.setEventHandler { [weak self] in self?.deliver(number) }
            source.resume()
        }
    }

    /// Sets the handler; signals that arrive from now on go to it, on ``queue``.
    public func setHandler(_ newHandler: @escaping @Sendable (LifecycleEvent) -> Void) {
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
