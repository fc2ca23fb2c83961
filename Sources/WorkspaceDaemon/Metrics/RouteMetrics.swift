import Prometheus
import Synchronization

/// The figures of one control API route: its requests by status (`workspaced_http_requests_total`) and how long
/// they took (`workspaced_http_request_duration_seconds`), in a ``DaemonMetrics`` registry.
package final class RouteMetrics: Sendable {
    let route: String
    let registry: PrometheusCollectorRegistry
    let duration: DurationHistogram
    /// A counter per status answered, made the first time the status is.
    let counters = Mutex<[UInt: Prometheus.Counter]>([:])

    init(route: String, registry: PrometheusCollectorRegistry) {
        self.route = route
        self.registry = registry
        duration = registry.makeDurationHistogram(
            descriptor: .named(
                "workspaced_http_request_duration_seconds",
                help: "How long control API requests took to answer, by route."), labels: [("route", route)],
            buckets: DaemonMetrics.durationBuckets)
    }

    /// Counts a request answered with `status` after `duration`.
    package func served(status: UInt, duration: Duration) {
        let counter = counters.withLock { counters in
            if let counter = counters[status] { return counter }
            let counter = registry.makeCounter(
                descriptor: .named(
                    "workspaced_http_requests_total", help: "Control API requests, by route and status."),
                labels: [("route", route), ("status", "\(status)")])
            counters[status] = counter
            return counter
        }
        counter.increment()
        self.duration.record(duration)
    }
}
