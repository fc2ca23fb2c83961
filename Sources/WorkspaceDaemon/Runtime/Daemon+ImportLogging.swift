import Logging
import StateStore

extension Daemon {
    /// Logs what the one-time import from `legacyStatePath` did: the import itself once (with its MESSAGE_ID,
    /// saying the old file may be removed), a refusal as an error, and the cases an operator should know about
    /// (a marker without a state file, a state file next to a legacy file) as warnings.
    func logImport(_ report: LoadReport) {
        guard let result = report.importResult else { return }
        let source = result.sourcePath
        var fields: Logger.Metadata = ["legacy_path": "\(source)", "marker_path": "\(result.markerPath)"]
        if let marker = result.marker {
            fields["legacy_sha256"] = "\(marker.sha256)"
            fields["legacy_bytes"] = "\(marker.size)"
            fields["from_version"] = "\(marker.version)"
        }
        let message: String
        switch result.outcome {
        case .imported:
            message =
                "imported the state of an earlier installation from \(source) into \(report.path); \(source) "
                + "was not changed and may be removed"
            logger.notice("\(message)", metadata: DaemonEvent.legacyImported.metadata(fields))
        case .markerCompleted:
            message = "the import of \(source) had written \(report.path) but not its marker; wrote it now"
            logger.notice("\(message)", metadata: fields)
        case .refused:
            fields["reason"] = "\(result.reason ?? "")"
            message =
                "cannot import \(source): \(result.reason ?? "unknown reason"); it was not changed, started "
                + "empty, the next start tries again"
            logger.error("\(message)", metadata: DaemonEvent.legacyImportRefused.metadata(fields))
        case .markerWithoutState:
            message =
                "\(report.path) is missing but \(result.markerPath) says \(source) was imported already; not "
                + "importing it again, started empty (remove the marker to import again)"
            logger.warning("\(message)", metadata: fields)
        case .stateFileWins:
            message =
                "both \(report.path) and the legacy state file \(source) exist; using \(report.path) and "
                + "ignoring \(source) (remove it, or set legacyStatePath to \"\" to silence this)"
            logger.warning("\(message)", metadata: fields)
        case .alreadyImported, .noSource:
            break
        }
        if result.outcome != .refused, let reason = result.reason {
            logger.warning("\(reason)", metadata: fields)
        }
    }
}
