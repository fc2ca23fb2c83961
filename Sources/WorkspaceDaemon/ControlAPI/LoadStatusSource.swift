import Foundation
import StateStore

/// What `/v1/status` tells of the load that produced the served state: its report and when it finished.
public struct LoadStatusSource: Sendable {
    /// The load's report.
    public var report: LoadReport
    /// When the load finished.
    public var loadedAt: Date

    /// The load described by `report`, finished at `loadedAt`.
    public init(report: LoadReport, loadedAt: Date) {
        self.report = report
        self.loadedAt = loadedAt
    }
}
