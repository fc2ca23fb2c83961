import FoundationEssentials
import Prometheus
import StateStore
import WorkspaceAPI

extension DaemonMetrics {
    /// What a scrape reads: the history, the replica and the event subscribers.
    package struct Scrape: Sendable {
        /// The history kept, when it is.
        package var history: HistoryStatus?
        /// The replica's part of `/v1/status`, when replicating.
        package var replica: ReplicaStatusResponse?
        /// Readers of `GET /v1/events` now.
        package var subscribers: Int
        /// The scrub, when the daemon runs one.
        package var scrub: ScrubStatusResponse?
        /// Events dropped from slow readers' buffers since the start.
        package var eventsDropped: Int

        /// A scrape of these.
        package init(
            history: HistoryStatus? = nil, replica: ReplicaStatusResponse? = nil, subscribers: Int = 0,
            scrub: ScrubStatusResponse? = nil, eventsDropped: Int = 0
        ) {
            self.eventsDropped = eventsDropped
            self.scrub = scrub
            self.history = history
            self.replica = replica
            self.subscribers = subscribers
        }
    }

    /// Records the changes the start replayed from the journal (what a crash left); the rest of the load is the
    /// state file's own figures (`workspaced_load_*`).
    package func recordReplay(_ replayed: Int) {
        registry.makeGauge(
            descriptor: .named(
                "workspaced_load_journal_changes_replayed",
                help: "Changes the start replayed from the journal (what a crash left).")
        ).set(to: Double(replayed))
    }

    /// Sets the gauges a scrape reads (the state, history, replica, subscribers, the process) and returns the
    /// exposition.
    package func exposition(_ scrape: Scrape) -> [UInt8] {
        let gauges = scrapeGauges
        gauges.subscribers.set(to: Double(scrape.subscribers))
        // A counter only goes up: it is brought to the hub's count by the difference.
        let newlyDropped = droppedReported.withLock { reported in
            defer { reported = max(reported, scrape.eventsDropped) }
            return max(0, scrape.eventsDropped - reported)
        }
        if newlyDropped > 0 { gauges.eventsDropped.increment(by: Int64(newlyDropped)) }
        if let history = scrape.history {
            gauges.historyBytes.set(to: Double(history.byteCount))
            gauges.historyOldest.set(to: Double(history.oldestRevision ?? 0))
            gauges.historyDamaged.set(to: Double(history.damaged.count))
        }
        if let replica = scrape.replica {
            gauges.replicaLagRevisions.set(to: Double(replica.lagRevisions))
            gauges.replicaLagSeconds.set(to: replica.lagSeconds ?? 0)
            gauges.replicaFailures.set(to: Double(replica.consecutiveFailures))
            gauges.replicaHeldBytes.set(to: Double(replica.heldBytes))
            gauges.replicaPrunedBytes.set(to: Double(replica.prunedUnreplicatedBytes))
        }
        if let scrub = scrape.scrub {
            gauges.scrubFailures.set(to: Double(scrub.damaged.count))
            gauges.scrubFilesChecked.set(to: Double(scrub.filesChecked))
            gauges.scrubDuration.set(to: scrub.lastDurationSeconds ?? 0)
            gauges.scrubLastRun.set(to: scrub.lastRunAt?.timeIntervalSince1970 ?? 0)
            gauges.scrubLastSuccess.set(to: scrub.lastSuccessAt?.timeIntervalSince1970 ?? 0)
            gauges.scrubInterval.set(to: Double(scrub.intervalHours * 3600))
        }
        return exposition()
    }
}

/// The gauges only a scrape sets, made when the daemon starts (so that every scrape has the same families).
struct ScrapeGauges: Sendable {
    let subscribers: Gauge
    let eventsDropped: Prometheus.Counter
    let historyBytes: Gauge
    let historyOldest: Gauge
    let historyDamaged: Gauge
    let replicaLagRevisions: Gauge
    let replicaLagSeconds: Gauge
    let replicaFailures: Gauge
    let replicaHeldBytes: Gauge
    let replicaPrunedBytes: Gauge
    let scrubFailures: Gauge
    let scrubFilesChecked: Gauge
    let scrubDuration: Gauge
    let scrubLastRun: Gauge
    let scrubLastSuccess: Gauge
    let scrubInterval: Gauge

    init(_ registry: PrometheusCollectorRegistry) {
        subscribers = registry.makeGauge(
            descriptor: .named("workspaced_event_subscribers", help: "Readers of GET /v1/events now."))
        eventsDropped = registry.makeCounter(
            descriptor: .named(
                "workspaced_events_dropped_total",
                help: "Events dropped from slow readers' full buffers (each then reads a lagged event)."))
        historyBytes = registry.makeGauge(
            descriptor: .named("workspaced_history_bytes", help: "The bytes the history takes."))
        historyOldest = registry.makeGauge(
            descriptor: .named(
                "workspaced_history_oldest_revision", help: "The oldest revision the history can give back."))
        historyDamaged = registry.makeGauge(
            descriptor: .named("workspaced_history_damaged_files", help: "History files that failed their check."))
        replicaLagRevisions = registry.makeGauge(
            descriptor: .named("workspaced_replica_lag_revisions", help: "Revisions the replica lacks."))
        replicaLagSeconds = registry.makeGauge(
            descriptor: .named(
                "workspaced_replica_lag_seconds",
                help: "At most how old the oldest change the replica lacks is (0 when caught up)."))
        replicaFailures = registry.makeGauge(
            descriptor: .named("workspaced_replica_consecutive_failures", help: "Failed replication passes in a row."))
        replicaHeldBytes = registry.makeGauge(
            descriptor: .named(
                "workspaced_replica_held_bytes", help: "Local history kept because the replica lacks it."))
        replicaPrunedBytes = registry.makeGauge(
            descriptor: .named(
                "workspaced_replica_pruned_unreplicated_bytes",
                help: "History the replica lacked that was pruned at replica.localMaximumBytes since the start."))
        scrubFailures = registry.makeGauge(
            descriptor: .named(
                "workspaced_scrub_failures", help: "Files the last scrub found damaged (0 when it passed)."))
        scrubFilesChecked = registry.makeGauge(
            descriptor: .named("workspaced_scrub_files_checked", help: "Files the last scrub read and checked."))
        scrubDuration = registry.makeGauge(
            descriptor: .named("workspaced_scrub_duration_seconds", help: "How long the last scrub took."))
        scrubLastRun = registry.makeGauge(
            descriptor: .named(
                "workspaced_scrub_last_run_timestamp_seconds",
                help: "When the last scrub finished, in seconds since 1970 (0 before the first)."))
        scrubLastSuccess = registry.makeGauge(
            descriptor: .named(
                "workspaced_scrub_last_success_timestamp_seconds",
                help:
                    "When the last scrub that found nothing damaged finished, in seconds since 1970 (0 before the first)."
            ))
        scrubInterval = registry.makeGauge(
            descriptor: .named(
                "workspaced_scrub_interval_seconds", help: "scrub.intervalHours in seconds; 0 when not scheduled."))
    }
}
