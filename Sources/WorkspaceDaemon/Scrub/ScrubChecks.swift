import Foundation
import StateStore
import WorkspaceModel
import WorkspaceStorage

/// The checks of a scrub, shared by `workspaced verify` (offline) and the daemon's periodic scrub: each reads files
/// a restore would start from, changes nothing and takes no lock, so it runs beside a daemon that writes.
enum ScrubChecks {
    /// Every backup beside `file` (`.bak`: pre-migration, before-restore, manual), each loaded and migrated in
    /// memory as a restore would.
    static func backups(of file: StateFile<Workspace>, schema: StateSchema<Workspace>) throws -> [ScrubFinding] {
        try file.backups().map { backup in
            let copy = OfflineTools.readOnlyFile(backup.path, schema: schema)
            do {
                let loaded = try copy.load()
                return ScrubFinding(
                    path: backup.path, problem: nil,
                    detail: "\(backup.kind.rawValue) backup, version "
                        + (loaded.report.storedVersion.map(String.init) ?? "?")
                        + (loaded.report.migrated ? " (migrates to \(schema.currentVersion))" : ""))
            } catch {
                return ScrubFinding(path: backup.path, problem: "\(error)")
            }
        }
    }

    /// Every file of the history of `lineage` beside `file`: its size and SHA-256 against the manifest, its frames
    /// and the chain of its changes. One finding per damaged file, and one for the whole history when none is;
    /// empty without a history.
    static func history(of file: StateFile<Workspace>, lineage: Lineage) -> [ScrubFinding] {
        guard let history = file.checkHistory(WorkspaceChange.self, lineage: lineage) else { return [] }
        var findings = history.damaged.map { ScrubFinding(path: $0.path, problem: $0.reason, files: 0) }
        // The history's files (its manifest included) count once each, whole or not.
        let whole = ScrubFinding(
            path: history.directory, problem: nil,
            detail: "history of \(history.fileCount) file(s), \(history.byteCount) bytes, every SHA-256 and change "
                + "checked",
            files: history.fileCount)
        if history.damaged.isEmpty {
            findings.append(whole)
        } else {
            findings[0].files = history.fileCount
        }
        return findings
    }
}
