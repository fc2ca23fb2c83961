import Foundation
import WorkspaceAPI

extension StatusCommand {
    /// The last load's story: what was loaded or migrated, where originals went, what was changed, and when.
    static func loadRows(_ status: StatusResponse) -> [(String, String)] {
        guard let load = status.load else { return [] }
        var rows: [(String, String)] = [
            (
                "loaded",
                Formatting.moment(load.loadedAt)
                    + String(format: " in %.1f ms, %d bytes", load.loadMilliseconds, load.bytes)
            )
        ]
        switch load.source {
        case "noFile": rows.append(("", "no state file: started empty at version \(load.currentVersion)"))
        case "quarantined":
            let serving = load.restoredFromBackup.map { "the state came from backup \($0)" } ?? "started empty"
            rows.append(("", "the file was CORRUPT and moved to \(load.quarantinePath ?? "?"); \(serving)"))
        case "imported": rows.append(("", "imported \(load.importedFrom ?? "a legacy file")"))
        default: break
        }
        if let from = load.migratedFrom, let to = load.migratedTo {
            let steps = load.steps.joined(separator: ", ")
            rows.append(("migrated", "version \(from) to \(to) (steps \(steps))"))
            rows.append(("backup", load.backupPath ?? "not yet written (the first save writes it)"))
        } else if let stored = load.storedVersion {
            rows.append(("version", "\(stored) as stored, no migration"))
        }
        if let original = load.salvageOriginalPath {
            rows.append(("salvaged", "\(load.salvageChanges ?? 0) change(s); the original is kept at \(original)"))
        }
        var counts: [String] = []
        if load.repairs > 0 { counts.append("\(load.repairs) repair(s)") }
        if load.defaultedFields > 0 { counts.append("\(load.defaultedFields) defaulted field(s)") }
        if load.unknownFieldsKept > 0 { counts.append("\(load.unknownFieldsKept) unknown field(s) kept") }
        if !counts.isEmpty { rows.append(("changes", counts.joined(separator: ", "))) }
        return rows
    }
}
