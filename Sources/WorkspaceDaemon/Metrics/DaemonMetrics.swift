import Foundation
import Prometheus
import StateStore
import Synchronization

/// The daemon's figures in Prometheus's text format (issue 44), served by `GET /v1/metrics`: counters and
/// histograms the daemon updates as things happen (changes, saves, requests), and gauges read from the state's
/// status at each scrape (revision, journal, history, replica lag, the process's memory and descriptors).
///
/// One registry per daemon, passed in: nothing is global, so tests and two daemons in one process do not share
/// figures. Names follow Prometheus's conventions: `workspaced_` first, base units, `_total` counters,
/// `_seconds` histograms.
package final class DaemonMetrics: Sendable {
    /// The registry every figure is in.
    package let registry = PrometheusCollectorRegistry()
    let saveDuration: DurationHistogram
    let saves: Prometheus.Counter
    let saveFailures: Prometheus.Counter
    let journalFailures: Prometheus.Counter
    let startTime: Gauge
    let revision: Gauge
    let savedRevision: Gauge
    let stateFileBytes: Gauge
    let journalBytes: Gauge
    let journalSegments: Gauge
    let residentMemory: Gauge
    let openDescriptors: Gauge
    let scrapeGauges: ScrapeGauges
    /// Counters with labels, made the first time a label is seen.
    let labelled = Mutex(Labelled())

    struct Labelled {
        var changes: [String: Prometheus.Counter] = [:]
    }

    /// The buckets of request and save durations: 100 µs to 10 s.
    static let durationBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(10),
    ]

    /// The figures of a daemon of `version` serving schema `schemaVersion`, started at `startedAt`.
    package init(version: String, schemaVersion: Int, startedAt: Date = Date()) {
        registry.makeGauge(
            name: "workspaced_build_info", labels: [("version", version), ("schema", "\(schemaVersion)")],
            help: "The release and the schema version it writes; always 1."
        ).set(to: 1.0)
        startTime = registry.makeGauge(
            name: "workspaced_process_start_time_seconds", help: "When the daemon started, in seconds since 1970.")
        startTime.set(to: startedAt.timeIntervalSince1970)
        saveDuration = registry.makeDurationHistogram(
            name: "workspaced_save_duration_seconds", buckets: Self.durationBuckets,
            help: "How long each save of the state file took (write, fsync, rename, directory fsync).")
        saves = registry.makeCounter(name: "workspaced_saves_total", help: "Saves of the state file that succeeded.")
        saveFailures = registry.makeCounter(
            name: "workspaced_save_failures_total", help: "Saves of the state file that failed (each is retried).")
        journalFailures = registry.makeCounter(
            name: "workspaced_journal_failures_total",
            help: "Times the change journal failed; changes are refused until a snapshot is durable.")
        revision = registry.makeGauge(name: "workspaced_revision", help: "The state's current revision.")
        savedRevision = registry.makeGauge(
            name: "workspaced_saved_revision", help: "The revision the state file on disk holds.")
        stateFileBytes = registry.makeGauge(
            name: "workspaced_state_file_bytes", help: "The size of the state file as last saved.")
        journalBytes = registry.makeGauge(name: "workspaced_journal_bytes", help: "The change journal's bytes.")
        journalSegments = registry.makeGauge(
            name: "workspaced_journal_segments", help: "The change journal's segment files.")
        residentMemory = registry.makeGauge(
            name: "workspaced_process_resident_memory_bytes", help: "The daemon's resident memory.")
        openDescriptors = registry.makeGauge(
            name: "workspaced_process_open_fds", help: "The daemon's open file descriptors.")
        scrapeGauges = ScrapeGauges(registry)
    }

    /// Counts what a ``StateStore/PersistenceEvent`` says: saves and their duration, failures.
    package func observe(_ event: PersistenceEvent) {
        switch event {
        case .saved(_, let duration, let byteCount):
            saves.increment()
            saveDuration.record(duration)
            stateFileBytes.set(to: Double(byteCount))
        case .saveFailed:
            saveFailures.increment()
        case .journalFailed:
            journalFailures.increment()
        case .saveRecovered, .journalResumed:
            break
        }
    }

    /// Counts a change the control API applied, by its operation (`favorite.create`, `project.delete`, …).
    package func changeApplied(operation: String) {
        let counter = labelled.withLock { labelled in
            if let counter = labelled.changes[operation] { return counter }
            let counter = registry.makeCounter(
                name: "workspaced_changes_total", labels: [("operation", operation)],
                help: "Changes applied through the control API, by operation.")
            labelled.changes[operation] = counter
            return counter
        }
        counter.increment()
    }

    /// The request figures of one control API route (`GET /v1/projects/{id}`), made when the route is registered,
    /// so that a request takes no lock shared with other routes and builds no label.
    package func route(_ route: String) -> RouteMetrics {
        RouteMetrics(route: route, registry: registry)
    }

    /// Sets the gauges read at a scrape from `status` and the process, then returns the exposition text.
    package func exposition(status: PersistenceStatus) -> [UInt8] {
        revision.set(to: Double(status.revision))
        savedRevision.set(to: Double(status.savedRevision))
        if let journal = status.journal {
            journalBytes.set(to: Double(journal.byteCount))
            journalSegments.set(to: Double(journal.segmentCount))
        }
        if let resident = Self.residentBytes() { residentMemory.set(to: Double(resident)) }
        if let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            openDescriptors.set(to: Double(descriptors.count))
        }
        return registry.emitToBuffer()
    }

    /// The resident set from `/proc/self/statm` (its second field, in pages).
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
