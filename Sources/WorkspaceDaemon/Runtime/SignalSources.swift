import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Dispatch signal sources for SIGTERM, SIGINT and SIGHUP, installed before anything else at start-up so that
/// no signal can kill the process before its handler exists (which would hide a lost flush behind a clean stop).
///
/// Until handlers are set, a SIGTERM or SIGINT exits at once with status 0 (nothing was accepted yet) and a
/// SIGHUP is ignored. Handlers run one at a time on one serial queue, so a second signal during a flush waits.
public final class SignalSources: Sendable {
    /// What to do on a signal.
    public struct Handlers: Sendable {
        /// SIGTERM and SIGINT: stop. Receives the signal number.
        public var stop: @Sendable (Int32) -> Void
        /// SIGHUP: reload.
        public var reload: @Sendable () -> Void

        /// Handlers with the given actions.
        public init(stop: @escaping @Sendable (Int32) -> Void, reload: @escaping @Sendable () -> Void) {
            self.stop = stop
            self.reload = reload
        }
    }

    /// The queue the handlers run on.
    public let queue = DispatchQueue(label: "workspaced.signals")
    private let handlers: Mutex<Handlers?>
    /// Kept only to keep the sources alive; never changed after `init`.
    private nonisolated(unsafe) let sources: [any DispatchSourceSignal]

    /// Ignores the default actions of SIGTERM, SIGINT and SIGHUP and starts a source for each.
    public init() {
        handlers = Mutex(nil)
        let numbers = [SIGTERM, SIGINT, SIGHUP]
        for number in numbers { signal(number, SIG_IGN) }
        let queue = self.queue
        sources = numbers.map { DispatchSource.makeSignalSource(signal: $0, queue: queue) }
        for (number, source) in zip(numbers, sources) {
            source.setEventHandler { [weak self] in self?.deliver(number) }
            source.resume()
        }
    }

    /// Sets the handlers; signals that arrive from now on go to them.
    public func setHandlers(_ newHandlers: Handlers) {
        handlers.withLock { $0 = newHandlers }
    }

    private func deliver(_ number: Int32) {
        let current = handlers.withLock { $0 }
        switch (number, current) {
        case (SIGHUP, let handlers?): handlers.reload()
        case (SIGHUP, nil): break
        case (_, let handlers?): handlers.stop(number)
        case (_, nil): exit(0)
        }
    }
}
