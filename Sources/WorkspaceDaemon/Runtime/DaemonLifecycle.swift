import Dispatch
import Logging
import Synchronization
import WorkspaceAPI

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's life from start to exit: every event (TERM, INT, HUP) is handled on one serial queue, one at a
/// time, in the order it came, so a reload never races a stop and a second TERM during the flush changes
/// nothing.
///
/// ```swift
/// // First: from here on no signal can kill the process unflushed.
/// let signals = SignalSources(LifecycleEvent.signals, handler: LifecycleEvent.beforeStart)
/// let lifecycle = DaemonLifecycle(queue: signals.queue)
/// signals.setHandler { lifecycle.handle(LifecycleEvent(signal: $0)) }
/// let status = await lifecycle.run(daemon)      // start, serve until a stop, then close the server
/// ```
///
/// The SIGTERM flush is synchronous, on the signal source's queue. Before the control API serves (while the
/// state loads) a stop exits at once with status 0: nothing was accepted yet and the file on disk is whole. From
/// the moment it serves until ``run(_:)`` has the running daemon, a stop or a reload is held and handled as soon as
/// it has; a reload before it serves is ignored (there is no configuration to re-read yet).
package final class DaemonLifecycle: Sendable {
    enum Phase: Sendable {
        /// Loading; a stop exits at once.
        case loading
        /// Serving (READY=1 may have been sent), but the running daemon is not handed over yet; a stop and a reload
        /// wait here, and are handled in the order stop after reload once it is.
        case serving(pendingStop: Int32?, pendingReload: Bool)
        /// Running: stops flush, reloads apply.
        case running(RunningDaemon)
        /// Stopped with this status; later events change nothing.
        case stopped(ExitStatus)
    }

    /// The serial queue every event is handled on (``SignalSources/queue`` in production).
    package let queue: DispatchQueue
    let phase = Mutex<Phase>(.loading)
    /// The status of the stop, once one was handled.
    let stopStatus = OnceValue<ExitStatus>()
    /// The running daemon once ``run(_:)`` has it, or `nil` when it did not start.
    let startOutcome = OnceValue<RunningDaemon?>()
    let exitNow: @Sendable (ExitStatus) -> Void
    /// The daemon ``run(_:)`` is starting, for a stop that comes while it loads.
    let starting = Mutex<Daemon?>(nil)
    /// The daemon ``run(_:)`` stopped, kept so that the process can exit without tearing its state down.
    let stoppedDaemon = Mutex<RunningDaemon?>(nil)

    /// A lifecycle handling events on `queue`.
    ///
    /// - Parameter exitNow: Ends the process for a stop that comes while the state is still loading
    ///   (`exit(0)` in production; tests record it instead).
    package init(
        queue: DispatchQueue,
        exitNow: @escaping @Sendable (ExitStatus) -> Void = { Glibc.exit($0.rawValue) }
    ) {
        self.queue = queue
        self.exitNow = exitNow
    }

    /// The running daemon, once ``run(_:)`` has it and until it stopped.
    package var running: RunningDaemon? {
        phase.withLock { phase in
            if case .running(let running) = phase { return running }
            return nil
        }
    }

    /// Handles one event. Call it on ``queue`` only (``SignalSources`` does).
    package func handle(_ event: LifecycleEvent) {
        dispatchPrecondition(condition: .onQueue(queue))
        switch event {
        case .reload:
            let running = phase.withLock { phase -> RunningDaemon? in
                switch phase {
                case .running(let running):
                    return running
                case .serving(let stop, _):
                    // Serving since READY=1 but not handed over yet: `systemctl reload` right after the start
                    // must not be lost.
                    phase = .serving(pendingStop: stop, pendingReload: true)
                    return nil
                case .loading, .stopped:
                    return nil
                }
            }
            guard let running else { return }
            // The one bridge from the signal queue to async code: reading the configuration is async
            // (swift-configuration's file provider). Blocking this queue for it is what keeps a TERM that
            // comes meanwhile behind the reload.
            let done = DispatchSemaphore(value: 0)
            Task {
                await running.reload()
                done.signal()
            }
            done.wait()
        case .stop(let signal):
            let action = phase.withLock { phase -> StopAction in
                switch phase {
                case .loading: return .exitAtOnce
                case .serving(_, let reload):
                    phase = .serving(pendingStop: signal, pendingReload: reload)
                    return .hold
                case .running(let running): return .flush(running)
                case .stopped: return .nothing
                }
            }
            switch action {
            case .exitAtOnce:
                // A clean stop, not a crash: the load under way does not count towards the crash-loop guard.
                starting.withLock { $0 }?.stoppedWhileLoading()
                finish(.success)
                exitNow(.success)
            case .hold, .nothing:
                break
            case .flush(let running):
                let status = running.stop(signal: signal)
                phase.withLock { $0 = .stopped(status) }
                finish(status)
            }
        }
    }

    private enum StopAction {
        case exitAtOnce, hold, flush(RunningDaemon), nothing
    }

    /// Starts `daemon`, runs it until a stop event, closes its control server and returns the status to exit
    /// with (the start failure's when it did not start).
    package func run(_ daemon: Daemon) async -> ExitStatus {
        let running: RunningDaemon
        starting.withLock { $0 = daemon }
        do {
            running = try await daemon.start(serving: { self.beganServing() })
        } catch {
            daemon.logger.critical("\(error)")
            started(nil)
            return error.exitCode
        }
        let (pendingStop, pendingReload) = phase.withLock { phase -> (Int32?, Bool) in
            guard case .serving(let stop, let reload) = phase else { return (nil, false) }
            phase = .running(running)
            return (stop, reload)
        }
        started(running)
        if pendingReload { queue.async { self.handle(.reload) } }
        if let pendingStop { queue.async { self.handle(.stop(signal: pendingStop)) } }
        let status = await stopped()
        await running.shutDown()
        // The state is flushed and closed. Freeing a large workspace record by record takes longer than the
        // flush of a clean one (75 ms for 50 MB); a caller that exits right away (`workspaced run`) lets the
        // kernel take the memory back instead.
        stoppedDaemon.withLock { $0 = running }
        return status
    }

    private func beganServing() {
        phase.withLock { $0 = .serving(pendingStop: nil, pendingReload: false) }
    }

    /// Returns the running daemon once ``run(_:)`` has it, or `nil` when it did not start.
    package func whenRunning() async -> RunningDaemon? {
        await startOutcome.value
    }

    private func started(_ running: RunningDaemon?) {
        startOutcome.set(running)
    }

    /// Returns once a stop was handled, with its status.
    package func stopped() async -> ExitStatus {
        await stopStatus.value
    }

    private func finish(_ status: ExitStatus) {
        stopStatus.set(status)
    }
}
