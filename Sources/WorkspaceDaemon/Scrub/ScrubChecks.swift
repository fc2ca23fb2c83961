import FoundationEssentials
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
                var finding = ScrubFinding(
                    path: backup.path, problem: nil,
                    detail: "\(backup.kind.rawValue) backup, version "
                        + (loaded.report.storedVersion.map(String.init) ?? "?")
                        + (loaded.report.migrated ? " (migrates to \(schema.currentVersion))" : ""))
                if let note = changeNote(loaded.report) {
                    finding.detail += note
                    finding.changedOutside = true
                }
                return finding
            } catch {
                return ScrubFinding(path: backup.path, problem: "\(error)")
            }
        }
    }

    /// `, changed outside the daemon since its last save (…)` for a load whose content checksum did not match.
    static func changeNote(_ report: LoadReport) -> String? {
        guard case .mismatch(let recorded, let computed) = report.contentChecksum else { return nil }
        return ", changed outside the daemon since its last save (content checksum \(computed), \(recorded) recorded)"
    }

    /// The state file the daemon owns, read from disk without its lock (a save replaces it whole, by a rename):
    /// its content checksum must be the one its last save recorded. A mismatch means the bytes changed on disk
    /// since: damage, or an edit while the daemon runs, which its next save would overwrite. A file without a
    /// checksum (written before they were recorded) passes; none when there is no file yet (nothing saved).
    static func stateFile(at path: String) -> ScrubFinding? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            return ScrubFinding(path: path, problem: "cannot read it: \(error)")
        }
        switch ContentChecksum.verify(bytes) {
        case .matches:
            return ScrubFinding(path: path, problem: nil, detail: "state file, content checksum matches")
        case .absent:
            return ScrubFinding(path: path, problem: nil, detail: "state file, no content checksum recorded yet")
        case .mismatch(let recorded, let computed):
            return ScrubFinding(
                path: path,
                problem: "its content changed on disk since the daemon saved it (content checksum \(computed), "
                    + "\(recorded) recorded); the next save replaces it with the state in memory")
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
