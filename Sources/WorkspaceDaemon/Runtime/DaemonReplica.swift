import Dispatch
import FoundationEssentials
import Logging
import StateStore
import StateStoreS3
import Synchronization
import Systemd
import WorkspaceAPI

/// The replication a running daemon does: the library's ``StateStore/Replicator`` over the
/// ``ReplicaConnection`` of the `replica.*` settings, its events logged with their `MESSAGE_ID`s, its status for
/// `/v1/status`, and the last pass at a stop.
package final class DaemonReplica: Sendable {
    /// The settings it runs with.
    package let settings: ReplicaSettings
    /// The replicator.
    package let replicator: Replicator
    /// What keeps the history from pruning files the replica lacks (``ReplicaSettings/localMaximumBytes``); `nil`
    /// when that is 0.
    package let hold: HistoryHold?
    let connection: ReplicaConnection

    /// Replication of the state file at `statePath` with `settings` over `connection`, as the installation
    /// `installation`; logs to `logger` and tells `notifier` when another installation holds the lease. `hold` is
    /// the one the state's history was opened with (``makeHold(settings:logger:)``). Not started.
    package init(
        settings: ReplicaSettings, connection: ReplicaConnection, statePath: String, installation: String,
        hold: HistoryHold?, logger: Logger, notifier: any ServiceNotifier
    ) {
        self.settings = settings
        self.hold = hold
        self.connection = connection
        let url = settings.location.description
        replicator = Replicator(
            stateFilePath: statePath, target: connection.target,
            // Retries start at the sync interval and double up to 30 s: a store back after a short outage is caught
            // up within a few intervals, one down for long is asked twice a minute.
            configuration: ReplicatorConfiguration(
                installation: installation, syncInterval: settings.syncInterval,
                backoff: RetryBackoff(initial: settings.syncInterval, maximum: .seconds(30)), digest: .crypto),
            hold: hold,
            observer: { event in Self.log(event, url: url, logger: logger, notifier: notifier) })
    }

    /// The hold to open the state's history with: it keeps what the replica lacks up to
    /// ``ReplicaSettings/localMaximumBytes`` and logs `replicaHoldExceeded` when the history prunes past it; `nil`
    /// for 0.
    package static func makeHold(settings: ReplicaSettings, logger: Logger) -> HistoryHold? {
        guard settings.localMaximumBytes > 0 else { return nil }
        let url = settings.location.description
        return HistoryHold(maximumByteCount: settings.localMaximumBytes) { event in
            guard case .pruned(let files, let bytes, let historyBytes, let maximum) = event else { return }
            let newest = files.map(\.lastRevision).max() ?? 0
            logger.warning(
                "replica \(url): the local history reached replica.localMaximumBytes (\(historyBytes) of \(maximum) bytes) and pruned \(files.count) file(s), \(bytes) bytes up to revision \(newest), that the replica does not hold",
                metadata: DaemonEvent.replicaHoldExceeded.metadata([
                    "replica_url": "\(url)", "file_count": "\(files.count)", "dropped_bytes": "\(bytes)",
                    "newest_revision": "\(newest)", "history_bytes": "\(historyBytes)",
                    "local_maximum_bytes": "\(maximum)",
                ]))
        }
    }

    /// Starts the periodic passes; warns first when the replica is plaintext.
    package func start(logger: Logger) {
        if settings.encryption == .none {
            logger.warning(
                "replica \(settings.location) is not encrypted (replica.encryption = \"none\"): the store holds the workspace in plaintext",
                metadata: DaemonEvent.replicaPlaintext.metadata(["replica_url": "\(settings.location)"]))
        }
        replicator.start()
    }

    /// Stops the passes; when the last one succeeded, runs one more so that what the stop's flush wrote is
    /// shipped (a store that was failing is not waited for). Closes the connection.
    package func stop() {
        let healthy = replicator.status.consecutiveFailures == 0 && replicator.status.holdsLease
        replicator.stop(finalPass: healthy)
        connection.close()
    }

    /// Waits for a pass that ships `revision` (a durable acknowledgement with `replica.durableAcknowledgement`);
    /// returns whether the replica holds it.
    package func waitUntilReplicated(_ revision: UInt64) async -> Bool {
        // A pass that ran for another durable change meanwhile may have shipped it already.
        if (replicator.status.replicatedRevision ?? 0) >= revision { return true }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [replicator] in
                let status = replicator.sync()
                continuation.resume(returning: (status.replicatedRevision ?? 0) >= revision && status.lastError == nil)
            }
        }
    }

    /// The replica's part of `/v1/status`, with the lag against `revision`, the daemon's newest, and what `history`
    /// (the state's) holds for the replica.
    package func statusResponse(
        revision: UInt64, history: HistoryStatus?, now: Date = Date()
    ) -> ReplicaStatusResponse {
        let status = replicator.status
        let lag = revision - min(revision, status.replicatedRevision ?? 0)
        // The replica held everything of the last successful pass's start: a change it lacks is at most that old.
        let lagSeconds =
            lag == 0 ? (status.lastSuccess == nil ? nil : 0) : status.lastSuccess.map { now.timeIntervalSince($0) }
        return ReplicaStatusResponse(
            url: settings.location.description, holdsLease: status.holdsLease,
            heldBy: status.heldBy?.installation, heldByHost: status.heldBy?.host,
            replicatedRevision: status.replicatedRevision, replicatedTime: status.replicatedRevisionTime,
            lagRevisions: lag, lagSeconds: lagSeconds.map { max(0, $0) }, lastSuccessAt: status.lastSuccess,
            lastError: status.lastError, lastErrorAt: status.lastErrorDate,
            consecutiveFailures: status.consecutiveFailures, encryption: settings.encryption.rawValue,
            localMaximumBytes: settings.localMaximumBytes, heldBytes: history?.heldByteCount ?? 0,
            prunedUnreplicatedBytes: hold?.status.droppedByteCount ?? 0,
            prunedUnreplicatedRevision: hold?.status.newestDroppedRevision,
            prunedUnreplicatedAt: hold?.status.lastDropped)
    }

    /// Logs a replicator's event; a lease held elsewhere also goes to the service manager's STATUS.
    static func log(_ event: ReplicaEvent, url: String, logger: Logger, notifier: any ServiceNotifier) {
        switch event {
        case .failed(let error, let failures, let retryIn):
            logger.warning(
                "replica \(url): \(error); \(failures) failed pass(es) in a row, retrying in \(retryIn); serving on",
                metadata: DaemonEvent.replicaFailed.metadata([
                    "replica_url": "\(url)", "error": "\(error)", "consecutive_failures": "\(failures)",
                ]))
        case .recovered(let failures):
            logger.notice(
                "replica \(url): replicating again after \(failures) failed pass(es)",
                metadata: DaemonEvent.replicaRecovered.metadata([
                    "replica_url": "\(url)", "consecutive_failures": "\(failures)",
                ]))
        case .leaseAcquired(let takenOver):
            logger.notice(
                "replica \(url): this installation holds the lease\(takenOver ? " (taken over)" : "") and replicates",
                metadata: DaemonEvent.replicaLeaseAcquired.metadata(["replica_url": "\(url)"]))
        case .leaseHeldElsewhere(let lease):
            let line = "replica: held by \(lease.installation) (\(lease.host))"
            logger.warning(
                "\(line): serving locally, replicating nothing; `workspaced replica takeover` moves the lease once that host is gone",
                metadata: DaemonEvent.replicaHeldElsewhere.metadata([
                    "replica_url": "\(url)", "lease_installation": "\(lease.installation)",
                    "lease_host": "\(lease.host)",
                ]))
            try? notifier.status(line)
        }
    }
}
