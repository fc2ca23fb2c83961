import Dispatch
import Logging
import StateStore
import Systemd
import WorkspaceClient

extension Daemon {
    /// Stops on SIGTERM or SIGINT: STOPPING=1, refuse further changes, flush synchronously.
    ///
    /// Runs on the signal queue and blocks it until the state is durable or the flush failed; a second signal
    /// waits behind it.
    /// - Returns: ``WorkspaceClient/ExitStatus/success`` when everything accepted is on disk, ``WorkspaceClient/ExitStatus/ioError`` otherwise (the
    ///   old file is intact).
    public func stop(signal: Int32) -> ExitStatus {
        send { try notifier.stopping(status: "flushing") }
        logger.info("received signal \(signal); stopping")
        watchdog.withLock { $0?.stop() }
        guard let state else { return .success }
        let before = state.status
        defer { stopControlServer() }
        do {
            try state.close()
        } catch {
            let status = state.status
            logger.error(
                "flush on stop failed: \(error); changes after revision \(status.durableRevision) are lost",
                metadata: DaemonEvent.flushFailed.metadata([
                    "error": "\(error)", "revision": "\(status.revision)",
                    "durable_revision": "\(status.durableRevision)",
                ]))
            return .ioError
        }
        let status = state.status
        logger.notice(
            "flushed on stop: revision \(status.durableRevision) is on disk",
            metadata: DaemonEvent.flushedOnStop.metadata([
                "revision": "\(status.durableRevision)", "was_dirty": "\(before.isDirty)",
            ]))
        return .success
    }
}

extension Daemon {
    /// Stops the control API after the final flush (requests still in flight finish; new changes were already
    /// refused by the closed state), waiting at most ten seconds (well inside `TimeoutStopSec=30`).
    func stopControlServer() {
        guard let httpServer = server.withLock({ $0 }) else { return }
        let done = DispatchSemaphore(value: 0)
        Task {
            await httpServer.shutdown()
            done.signal()
        }
        _ = done.wait(timeout: .now() + .seconds(10))
    }
}
