import FoundationEssentials
import Glibc
import Prometheus
import StateStore
import Synchronization
import WorkspaceAPI

/// The daemon's figures in Prometheus's text format, served by `GET /v1/metrics`: counters and
/// histograms the daemon updates as things happen (changes, requests), the state's own figures, which StateStore
/// reports through swift-metrics into the same registry (``stateMetrics``: saves, journal syncs, the revision, the
/// load), and gauges read at each scrape (history, replica lag, the process's memory and descriptors).
///
/// One registry per daemon, passed in: nothing is global, so tests and two daemons in one process do not share
/// figures. Names follow Prometheus's conventions: `workspaced_` first, base units, `_total` counters,
/// `_seconds` histograms.
package final class DaemonMetrics: Sendable {
    /// The registry every figure is in.
    package let registry = PrometheusCollectorRegistry()
    /// Where the state file reports its figures: this registry, named `workspaced_*`
    /// (``StateStore/StateFileConfiguration/metrics``).
    package let stateMetrics: StateMetrics
    let startTime: Gauge
    let residentMemory: Gauge
    let openDescriptors: Gauge
    let scrapeGauges: ScrapeGauges
    /// The events dropped the counter already holds (``exposition(_:)`` adds the difference).
    let droppedReported = Mutex(0)
    /// The change counters of the operations known at start, by operation.
    let operationCounters: [String: Prometheus.Counter]
    /// Counters with labels, made the first time a label is seen.
    let labelled = Mutex(Labelled())

    /// The request figures of each control API route, by route, made by ``prepareRoutes(_:)`` or the first
    /// ``route(_:)``.
    let routes = Mutex<[String: RouteMetrics]>([:])

    struct Labelled {
        var changes: [String: Prometheus.Counter] = [:]
    }

    /// The buckets of request and save durations: 100 µs to 10 s.
    static let durationBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(10),
    ]

    /// The figures of a daemon of `version` serving schema `schemaVersion`, started at `startedAt`, whose control
    /// API applies `operations` (a counter each, made now).
    package init(
        version: String, schemaVersion: Int, startedAt: Date = Date(),
        operations: [String] = Array(APIRoute.changeOperations.values)
    ) {
        registry.makeGauge(
            descriptor: .named(
                "workspaced_build_info", help: "The release and the schema version it writes; always 1."),
            labels: [("version", version), ("schema", "\(schemaVersion)")]
        ).set(to: 1.0)
        startTime = registry.makeGauge(
            descriptor: .named(
                "workspaced_process_start_time_seconds", help: "When the daemon started, in seconds since 1970."))
        startTime.set(to: startedAt.timeIntervalSince1970)
        residentMemory = registry.makeGauge(
            descriptor: .named("workspaced_process_resident_memory_bytes", help: "The daemon's resident memory."))
        openDescriptors = registry.makeGauge(
            descriptor: .named("workspaced_process_open_fds", help: "The daemon's open file descriptors."))
        scrapeGauges = ScrapeGauges(registry)
        // Each at 0 from the start, as Prometheus advises for label values known up front (a rate over a series
        // that appears only at its first change misses that change).
        var counters: [String: Prometheus.Counter] = [:]
        for operation in Set(operations) { counters[operation] = Self.changeCounter(operation, in: registry) }
        operationCounters = counters
        let descriptions = StateMetrics.descriptions(prefix: "workspaced")
        stateMetrics = StateMetrics(
            prefix: "workspaced",
            factory: RegistryMetricsFactory(
                registry: registry,
                help: Dictionary(descriptions.map { ($0.name, $0.help) }, uniquingKeysWith: { first, _ in first }),
                durationBuckets: Self.durationBuckets, valueBuckets: Self.groupSizeBuckets))
    }

    /// The buckets of the journal's group sizes: 1 to 1,024 changes per fdatasync.
    static let groupSizeBuckets: [Double] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]

    /// Counts a change the control API applied, by its operation (`favorite.create`, `project.delete`, …). The
    /// counters of the known operations are made up front (``init(version:schemaVersion:startedAt:operations:)``),
    /// so that a change takes no lock shared with other requests; another name is made under a lock once.
    package func changeApplied(operation: String) {
        if let counter = operationCounters[operation] {
            counter.increment()
            return
        }
        let counter = labelled.withLock { labelled in
            if let counter = labelled.changes[operation] { return counter }
            let counter = Self.changeCounter(operation, in: registry)
            labelled.changes[operation] = counter
            return counter
        }
        counter.increment()
    }

    static func changeCounter(_ operation: String, in registry: PrometheusCollectorRegistry) -> Prometheus.Counter {
        registry.makeCounter(
            descriptor: .named(
                "workspaced_changes_total", help: "Changes applied through the control API, by operation."),
            labels: [("operation", operation)])
    }

    /// The request figures of one control API route (`GET /v1/projects/{id}`), made once per route (by
    /// ``prepareRoutes(_:)`` or this call) and taken when the route is registered, so that a request takes no lock
    /// shared with other routes and builds no label.
    package func route(_ route: String) -> RouteMetrics {
        routes.withLock { routes in
            if let made = routes[route] { return made }
            let made = RouteMetrics(route: route, registry: registry)
            routes[route] = made
            return made
        }
    }

    /// Makes the figures of `routes` now, so that ``route(_:)`` finds them made: the daemon calls it on another
    /// thread while the state loads (a histogram's names and labels are checked character by character, about
    /// 20,000 instructions each, 30 routes before `READY=1`).
    package func prepareRoutes(_ routes: [String]) {
        for route in routes { _ = self.route(route) }
    }

    /// Sets the gauges read at a scrape from the process, then returns the exposition text.
    package func exposition() -> [UInt8] {
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
