import StateStore
import WorkspaceAPI

extension EventHub {
    /// Publishes a persistence engine's event (an observer of the state): `save_durable`, `save_failed` or
    /// `save_recovered`.
    package func observe(_ event: PersistenceEvent) {
        switch event {
        case .saved(let revision, let duration, let byteCount):
            publish(.saveDurable(revision: revision, milliseconds: duration.eventMilliseconds, bytes: byteCount))
        case .saveFailed(let error, let consecutiveFailures, let retryIn):
            publish(
                .saveFailed(
                    error: "\(error)", consecutiveFailures: consecutiveFailures,
                    retryInMilliseconds: retryIn?.eventMilliseconds))
        case .saveRecovered(let revision, let failures):
            publish(.saveRecovered(revision: revision, failures: failures))
        case .journalFailed, .journalResumed:
            // Logged and in /v1/status; the snapshot taken at once reports itself as save_durable or save_failed.
            break
        }
    }
}

extension Duration {
    /// Milliseconds, to the microsecond.
    var eventMilliseconds: Double {
        let (seconds, attoseconds) = components
        return ((Double(seconds) * 1e6 + Double(attoseconds / 1_000_000_000_000)) / 1000)
    }
}
