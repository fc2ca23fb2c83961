import Logging
import StateStore
import Systemd
import WorkspaceAPI

extension RunningDaemon {
    /// Stops on SIGTERM or SIGINT: STOPPING=1 and a `stopping` event, stop the watchdog, refuse further changes,
    /// flush synchronously, then end the event streams (after the final save's events).
    ///
    /// Runs on the caller's thread (the signal queue) and returns once the state is durable or the flush failed.
    /// A second call does nothing and returns the first one's status.
    /// - Returns: ``WorkspaceAPI/ExitStatus/success`` when everything accepted is on disk,
    ///   ``WorkspaceAPI/ExitStatus/ioError`` otherwise (the old file is intact).
    package func stop(signal: Int32) -> ExitStatus {
        if let done = stopStatus.withLock({ $0 }) { return done }
        send { try notifier.stopping(status: "flushing") }
        logger.info("received signal \(signal); stopping")
        events.publish(.stopping(signal: signal))
        watchdog?.stop()
        api.scrub?.stop()
        let workspace = flush()
        // After the flush, so that the last pass ships what the stop wrote.
        replica?.stop()
        // Last, so that the file holds the figures of the stop.
        metricsTextfile?.stop()
        let secrets = closeSecretStore()
        events.close()
        let status = workspace == .success ? secrets : workspace
        stopStatus.withLock { $0 = status }
        return status
    }

    private func flush() -> ExitStatus {
        let before = state.status
        do {
            try state.close()
        } catch {
            let status = state.status
            let kept =
                state.journalStatus.map { journal in
                    "the state file holds revision \(status.savedRevision), the change journal the changes up to "
                        + "\(journal.appendedRevision) (\(journal.syncedRevision) on the device), which the next start "
                        + "replays"
                } ?? "changes after revision \(status.durableRevision) are lost"
            logger.error(
                "flush on stop failed: \(error); \(kept)",
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
