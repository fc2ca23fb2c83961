import FoundationEssentials
import StateStore

/// What `/v1/status` tells of the load that produced the served state: its report and when it finished.
package struct LoadStatusSource: Sendable {
    /// The load's report.
    package var report: LoadReport
    /// When the load finished.
    package var loadedAt: Date

    /// The load described by `report`, finished at `loadedAt`.
    package init(report: LoadReport, loadedAt: Date) {
        self.report = report
        self.loadedAt = loadedAt
    }
}
