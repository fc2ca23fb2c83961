import FoundationEssentials
import StateStore
import WorkspaceAPI

extension LoadStatus {
    /// The status of a load from its report, finished at `loadedAt`, with the pre-migration backup the first save
    /// wrote (`nil` before it).
    init(report: LoadReport, loadedAt: Date, backupPath: String?) {
        let total = report.timings.total.components
        self.init(
            source: report.source.rawValue,
            summary: report.summary,
            storedVersion: report.storedVersion,
            currentVersion: report.currentVersion,
            migratedFrom: report.migrated ? report.storedVersion : nil,
            migratedTo: report.migrated ? report.currentVersion : nil,
            steps: report.stepsApplied.map { "\($0.lowerBound)->\($0.upperBound)" },
            backupPath: backupPath,
            quarantinePath: report.quarantine?.movedTo,
            salvageOriginalPath: report.salvage?.originalKeptAt,
            salvageChanges: report.salvage?.changeCount,
            importedFrom: report.source == .imported ? report.importResult?.sourcePath : nil,
            repairs: report.repairs.count,
            defaultedFields: report.fieldsDefaulted.values.reduce(0, +),
            unknownFieldsKept: report.unknownKeysKept.count,
            bytes: report.byteCount,
            loadedAt: loadedAt,
            loadMilliseconds: Double(total.seconds) * 1000 + Double(total.attoseconds) / 1e15)
        crashedLoadAttempts = report.crashedLoad?.attempts
        crashedLoadPath = report.crashedLoad?.movedTo
        restoredFromBackup = report.crashedLoad?.restoredFrom ?? report.quarantine?.restoredFrom
    }
}
