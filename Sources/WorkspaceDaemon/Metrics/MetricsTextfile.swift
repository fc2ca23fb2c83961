import Dispatch
import FoundationEssentials
import Logging
import Synchronization

/// Writes the daemon's metrics to a file every interval, for node_exporter's textfile collector (`metrics.textfile`):
/// Prometheus cannot scrape the control socket. Each write goes to a temporary name beside the file,
/// then is renamed over it, so the collector never reads half a file. A directory that is missing or read-only is
/// warned about once (with its MESSAGE_ID) and retried at every interval; it never stops the daemon.
package final class MetricsTextfile: Sendable {
    /// The file written.
    package let path: String
    let interval: Duration
    let exposition: @Sendable () -> [UInt8]
    let logger: Logger
    let queue = DispatchQueue(label: "workspaced.metrics-textfile")
    let state = Mutex(State())

    struct State {
        var running = false
        /// Whether the last write failed (and was warned about).
        var failing = false
        var writes = 0
    }

    /// A writer of `exposition()` to `path` every `interval`; it writes nothing until ``start()``.
    package init(
        path: String, interval: Duration, logger: Logger, exposition: @escaping @Sendable () -> [UInt8]
    ) {
        self.path = path
        self.interval = interval
        self.logger = logger
        self.exposition = exposition
    }

    /// Writes now, then every interval.
    package func start() {
        state.withLock { $0.running = true }
        queue.async { self.tick() }
    }

    /// Stops the writes after a last one, so the file holds the figures of the stop.
    package func stop() {
        let wasRunning = state.withLock { state -> Bool in
            defer { state.running = false }
            return state.running
        }
        guard wasRunning else { return }
        queue.sync { write() }
    }

    /// One write, then the next one scheduled while running.
    private func tick() {
        guard state.withLock({ $0.running }) else { return }
        write()
        let (seconds, attoseconds) = interval.components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(max(1_000_000, nanoseconds))) { self.tick() }
    }

    /// Writes successful so far.
    package var writes: Int { state.withLock { $0.writes } }

    /// One write (Foundation's atomic write: a temporary file beside it, then the rename); a failure is warned about
    /// once until a write succeeds.
    func write() {
        do {
            try Data(exposition()).write(to: URL(fileURLWithPath: path), options: .atomic)
            let recovered = state.withLock { state -> Bool in
                state.writes += 1
                defer { state.failing = false }
                return state.failing
            }
            if recovered { logger.notice("writing the metrics to \(path) again") }
        } catch {
            let first = state.withLock { state -> Bool in
                defer { state.failing = true }
                return !state.failing
            }
            guard first else { return }
            logger.warning(
                "cannot write the metrics to \(path) (metrics.textfile): \(error); retrying every \(interval)",
                metadata: DaemonEvent.metricsTextfileFailed.metadata([
                    "metrics_textfile": "\(path)", "error": "\(error)",
                ]))
        }
    }
}
