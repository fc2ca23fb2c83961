import FoundationEssentials
import StateStore
import WorkspaceModel
import WorkspaceStorage

extension OfflineTools {
    /// `workspaced verify`: reads every file a restore would start from and says, file by file, whether it is whole
    /// (the scrub, offline): the state file and its journal (loaded and replayed in memory, as a start would),
    /// every backup (`.bak`: pre-migration, before-restore, manual; loaded and migrated in memory), and every file of
    /// the history (size and SHA-256 against its manifest, frames, the chain of changes). Changes nothing and takes
    /// no lock, so it runs beside a running daemon.
    ///
    /// With `replica` (the configured one), its newest state too (``verifyReplica(connection:url:schema:temporaryDirectory:)``).
    ///
    /// One line a file, `ok` or `DAMAGED` with the reason; exit 0 when every file is whole, 65 (as `check` for a
    /// damaged file) when any is not, 66 without a state file, backup, history or replica to read. A state file or
    /// backup whose content checksum does not match (it changed outside the daemon since its last save, edited by
    /// hand, say) is whole, as it loads: `ok`, with a note naming it as changed outside the daemon, counted in the
    /// summary.
    package static func verify(
        stateDirectory directory: String, schema: StateSchema<Workspace> = WorkspaceSchema.shipped,
        replica: (connection: ReplicaConnection, url: String)? = nil
    ) -> Outcome {
        let path = statePath(inStateDirectory: directory)
        let file = readOnlyFile(path, schema: schema)
        var lines: [String] = []
        var damaged = 0
        var checked = 0
        var lineage: Lineage?
        var changedOutside = 0
        /// `, changed outside the daemon since its last save (…)` for a file whose checksum does not match.
        func changeNote(_ report: LoadReport) -> String {
            guard let note = ScrubChecks.changeNote(report) else { return "" }
            changedOutside += 1
            return note
        }
        func report(_ target: String, _ problem: String?, _ detail: String, files: Int = 1) {
            checked += files
            if let problem {
                damaged += 1
                lines.append("DAMAGED \(target): \(problem)")
            } else {
                lines.append("ok \(target): \(detail)")
            }
        }
        if FileManager.default.fileExists(atPath: path) {
            do {
                let loaded = try file.load()
                lineage = loaded.report.storedLineage ?? file.lineage
                let replay = try file.replayingJournal(WorkspaceChange.self, onto: loaded).replay
                let aside = replay.keptAside.map { "\($0.path) (\($0.reason))" }.joined(separator: "; ")
                report(
                    path, aside.isEmpty ? nil : "a start would keep journal segments aside: \(aside)",
                    "version \(loaded.report.storedVersion.map(String.init) ?? "?"), revision \(replay.revision)"
                        + (replay.recordsReplayed > 0 ? " with \(replay.recordsReplayed) journal change(s)" : "")
                        + changeNote(loaded.report))
            } catch {
                report(path, "\(error)", "")
            }
        }
        do {
            for finding in try ScrubChecks.backups(of: file, schema: schema) {
                if finding.changedOutside { changedOutside += 1 }
                report(finding.path, finding.problem, finding.detail, files: finding.files)
            }
        } catch {
            return Outcome(text: "verify: cannot list the backups in \(directory): \(error)", status: 74)
        }
        for finding in ScrubChecks.history(of: file, lineage: lineage ?? file.lineage) {
            report(finding.path, finding.problem, finding.detail, files: finding.files)
        }
        if let replica {
            let finding = verifyReplica(connection: replica.connection, url: replica.url, schema: schema)
            report(finding.path, finding.problem, finding.detail)
        }
        guard !lines.isEmpty else {
            return Outcome(
                text: "verify: nothing to verify in \(directory) (no state file, backup or history)", status: missing)
        }
        let changed =
            changedOutside == 0 ? "" : "; \(changedOutside) changed outside the daemon since its last save"
        let summary =
            damaged == 0
            ? "every file is whole (\(checked) checked\(changed))"
            : "\(damaged) of \(checked) file(s) damaged\(changed)"
        return Outcome(text: (lines + [summary]).joined(separator: "\n"), status: damaged == 0 ? loadable : corrupt)
    }
}
