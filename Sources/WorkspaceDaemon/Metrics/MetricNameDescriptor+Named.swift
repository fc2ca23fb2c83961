import Prometheus

extension MetricNameDescriptor {
    /// The descriptor of the metric called `name` in full (`workspaced_*`, its unit already in it) with `help` as
    /// its `# HELP` line: what the registry's makers take since swift-prometheus deprecated a name and a help.
    static func named(_ name: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}
