import CoreMetrics
import Prometheus

/// A swift-metrics backend over the daemon's registry that gives each figure its help text and buckets:
/// swift-prometheus's own factory registers every figure without a `# HELP` line, which `promtool check metrics`
/// reports. StateStore's figures (``StateStore/StateMetrics``) come in through it, named `workspaced_*`.
struct RegistryMetricsFactory: MetricsFactory {
    let registry: PrometheusCollectorRegistry
    /// The help text of every figure, by name.
    let help: [String: String]
    /// The buckets of every duration histogram (swift-metrics's timers).
    let durationBuckets: [Duration]
    /// The buckets of every value histogram (aggregated recorders: journal sync group sizes).
    let valueBuckets: [Double]

    private func descriptor(_ label: String) -> MetricNameDescriptor {
        .named(label, help: help[label] ?? label)
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard aggregate else { return registry.makeGauge(descriptor: descriptor(label), labels: dimensions) }
        return registry.makeValueHistogram(descriptor: descriptor(label), labels: dimensions, buckets: valueBuckets)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeGauge(descriptor: descriptor(label), labels: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        registry.makeDurationHistogram(descriptor: descriptor(label), labels: dimensions, buckets: durationBuckets)
    }

    // The daemon's figures live as long as the daemon: nothing is unregistered.
    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyMeter(_ handler: any MeterHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}
}
