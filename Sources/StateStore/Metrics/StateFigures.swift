#if Metrics
import CoreMetrics
import Synchronization
#endif

/// The handles of a state file's figures (``StateMetrics``), made once with the state file; every report is a
/// call on a handle made up front (an atomic update with a real backend, nothing with swift-metrics's no-op
/// one). Without the `Metrics` trait every method is empty.
final class StateFigures: Sendable {
    #if Metrics
    let appliedChanges: Counter
    let revision: Gauge
    let durableRevision: Gauge
    let savedRevision: Gauge
    let saves: Counter
    let saveFailureCount: Counter
    let saveDuration: CoreMetrics.Timer
    let stateFileBytes: Gauge
    let journalAppends: Counter
    let journalSyncDuration: CoreMetrics.Timer
    let journalSyncGroupSize: Recorder
    let journalFailures: Counter
    let journalBytes: Gauge
    let journalSegments: Gauge
    let loadDuration: Gauge
    let loadMigrationSteps: Gauge
    let loadSalvagedRecords: Gauge
    let crashLoopGuardTrips: Counter
    let prefix: String
    let factory: any MetricsFactory
    /// The save failures by errno name (`save_failures_by_errno_total`), made the first time a name is seen
    /// (failures are rare); `save_failures_total` counts them all, so that it exists before the first.
    let saveFailures = Mutex<[String: Counter]>([:])

    init(_ configuration: StateMetrics) {
        let factory = configuration.factory ?? MetricsSystem.factory
        let prefix = configuration.prefix
        self.prefix = prefix
        self.factory = factory
        func name(_ suffix: String) -> String { "\(prefix)_\(suffix)" }
        appliedChanges = Counter(label: name("applied_changes_total"), factory: factory)
        revision = Gauge(label: name("revision"), factory: factory)
        durableRevision = Gauge(label: name("durable_revision"), factory: factory)
        savedRevision = Gauge(label: name("saved_revision"), factory: factory)
        saves = Counter(label: name("saves_total"), factory: factory)
        saveFailureCount = Counter(label: name("save_failures_total"), factory: factory)
        saveDuration = CoreMetrics.Timer(label: name("save_duration_seconds"), factory: factory)
        stateFileBytes = Gauge(label: name("state_file_bytes"), factory: factory)
        journalAppends = Counter(label: name("journal_appends_total"), factory: factory)
        journalSyncDuration = CoreMetrics.Timer(label: name("journal_sync_duration_seconds"), factory: factory)
        journalSyncGroupSize = Recorder(label: name("journal_sync_group_size"), factory: factory)
        journalFailures = Counter(label: name("journal_failures_total"), factory: factory)
        journalBytes = Gauge(label: name("journal_bytes"), factory: factory)
        journalSegments = Gauge(label: name("journal_segments"), factory: factory)
        loadDuration = Gauge(label: name("load_duration_seconds"), factory: factory)
        loadMigrationSteps = Gauge(label: name("load_migration_steps"), factory: factory)
        loadSalvagedRecords = Gauge(label: name("load_salvaged_records"), factory: factory)
        crashLoopGuardTrips = Counter(label: name("crash_loop_guard_trips_total"), factory: factory)
    }
    #else
    init(_ configuration: StateMetrics) {}
    #endif

    /// A change was applied in memory: it has `revision`.
    @inline(__always)
    func applied(revision: UInt64) {
        #if Metrics
        appliedChanges.increment()
        self.revision.record(Double(revision))
        #endif
    }

    /// A change was appended to the journal.
    @inline(__always)
    func appended() {
        #if Metrics
        journalAppends.increment()
        #endif
    }

    /// A group sync made `changes` changes durable in `duration`, up to `durable`; the journal now has `bytes` in
    /// `segments` files.
    func journalSynced(changes: UInt64, duration: Duration, durable: UInt64, bytes: Int, segments: Int) {
        #if Metrics
        journalSyncDuration.recordNanoseconds(Self.nanoseconds(duration))
        journalSyncGroupSize.record(changes)
        durableRevision.record(Double(durable))
        journalBytes.record(bytes)
        journalSegments.record(segments)
        #endif
    }

    /// The journal failed.
    func journalFailed() {
        #if Metrics
        journalFailures.increment()
        #endif
    }

    /// A save wrote `revision` in `duration`, `byteCount` bytes; `durable` is the durable revision after it.
    func saved(revision: UInt64, duration: Duration, byteCount: Int, durable: UInt64) {
        #if Metrics
        saves.increment()
        saveDuration.recordNanoseconds(Self.nanoseconds(duration))
        stateFileBytes.record(byteCount)
        savedRevision.record(Double(revision))
        durableRevision.record(Double(durable))
        #endif
    }

    /// A save failed with `error`: counted, and counted by the errno of the call that failed (`ENOSPC`, `EIO`;
    /// `none` when no system call failed, e.g. the encoding).
    func saveFailed(_ error: StateStoreError) {
        #if Metrics
        saveFailureCount.increment()
        let label = error.errno.map(ErrnoName.name(of:)) ?? "none"
        let counter = saveFailures.withLock { counters in
            if let counter = counters[label] { return counter }
            let counter = Counter(
                label: "\(prefix)_save_failures_by_errno_total", dimensions: [("errno", label)], factory: factory)
            counters[label] = counter
            return counter
        }
        counter.increment()
        #endif
    }

    /// A load finished with `report`.
    func loaded(_ report: LoadReport) {
        #if Metrics
        Gauge(label: "\(prefix)_load_info", dimensions: [("source", report.sourceName)], factory: factory).record(1)
        loadDuration.record(Double(Self.nanoseconds(report.timings.total)) / 1e9)
        loadMigrationSteps.record(report.stepsApplied.count)
        loadSalvagedRecords.record(report.salvage?.changeCount ?? 0)
        if report.crashedLoad != nil { crashLoopGuardTrips.increment() }
        revision.record(Double(report.revision))
        savedRevision.record(Double(report.revision))
        durableRevision.record(Double(report.revision))
        stateFileBytes.record(report.byteCount)
        #endif
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }
}
