#if Metrics
import CoreMetrics
#endif

/// Where a ``StateFile`` and the ``PersistentState`` over it report their figures (saves and their duration,
/// journal appends and group syncs, the revision, the files' sizes, the load): through apple/swift-metrics, when
/// the package is built with its `Metrics` trait.
///
/// By default the figures go to whatever backend the program bootstrapped (`MetricsSystem.bootstrap`), named
/// `state_store_*`; with none bootstrapped they go to swift-metrics's no-op handlers and cost nothing measurable.
/// A program that keeps its own registry passes its factory instead, and a prefix of its own:
///
/// ```swift
/// let registry = PrometheusCollectorRegistry()
/// var configuration = StateFileConfiguration()
/// configuration.metrics = StateMetrics(prefix: "myservice", factory: PrometheusMetricsFactory(registry: registry))
/// ```
///
/// ``descriptions(prefix:)`` lists every figure with its help text. Without the `Metrics` trait nothing is
/// reported and only the prefix can be set.
public struct StateMetrics: Sendable, Equatable {
    /// The start of every figure's name (`state_store` gives `state_store_saves_total`).
    public var prefix: String

    #if Metrics
    /// The backend the figures go to; `nil` is the one bootstrapped in `MetricsSystem` when the state file is made.
    public var factory: (any MetricsFactory)?

    /// Figures named `prefix_*`, reported to `factory` (the bootstrapped backend when `nil`).
    public init(prefix: String = "state_store", factory: (any MetricsFactory)? = nil) {
        self.prefix = prefix
        self.factory = factory
    }
    #else
    /// Figures named `prefix_*`; without the `Metrics` trait none is reported.
    public init(prefix: String = "state_store") {
        self.prefix = prefix
    }
    #endif

    /// Two configurations are equal when their prefixes are (factories are not comparable).
    public static func == (lhs: StateMetrics, rhs: StateMetrics) -> Bool {
        lhs.prefix == rhs.prefix
    }
}
