import FoundationEssentials
import StateStore
import WorkspaceModel
import WorkspaceStorage

extension OfflineTools {
    /// Lists the files kept next to `workspace.json` in `directory` that `backups --restore` takes, newest first:
    /// backups (pre-migration, before-restore, manual) and the copies loads set aside (corrupt, crashed-load). One
    /// tab-separated line each, or with `json` a ``BackupsReport`` (whose list is empty when there are none). A
    /// directory that cannot be read is 74 with the error as text, also with `json`.
    package static func listBackups(
        stateDirectory directory: String, json: Bool = false, schema: StateSchema<Workspace> = WorkspaceSchema.shipped
    ) -> Outcome {
        let file = readOnlyFile(statePath(inStateDirectory: directory), schema: schema)
        do {
            let backups = try file.backups(includingSetAside: true)
            if json {
                let report = BackupsReport(
                    stateDirectory: directory, stateFile: file.path, backups: backups.map(BackupsReport.Backup.init))
                return Outcome(text: OfflineJSON.text(report), status: 0)
            }
            guard !backups.isEmpty else { return Outcome(text: "no backups in \(directory)", status: 0) }
            return Outcome(
                text: lines(
                    backups.map {
                        "\($0.name)\t\($0.kind.rawValue)\t\($0.version.map { "v\($0)" } ?? "-")\t\($0.size) bytes\t"
                            + $0.modificationDate.ISO8601Format()
                    }), status: 0)
        } catch {
            return failure(error, path: directory)
        }
    }

    /// Restores the file `name` in `directory` (any that ``listBackups(stateDirectory:json:schema:)`` lists) as the
    /// state file, taking the state lock, and says what it restored: its kind, version and revision, what it holds,
    /// where the current file was kept, and the lineage the next start continues (the hand-over is recorded, so the
    /// start reports no unclean stop). A file that does not load as it is is refused (65) and nothing changes;
    /// with `salvaging`, what a salvage keeps of it is written instead, and the text lists what the salvage changed.
    package static func restoreBackup(
        named name: String, stateDirectory directory: String, salvaging: Bool = false,
        schema: StateSchema<Workspace> = WorkspaceSchema.shipped
    ) -> Outcome {
        let file = lockedFile(statePath(inStateDirectory: directory), schema: schema)
        do {
            let restored = try file.restoreBackup(named: name, salvaging: salvaging)
            let handed = StateDirectoryOwner.handBack(file.directory)
            return Outcome(
                text: lines(restoredLines(restored, into: file, current: schema.currentVersion) + handed), status: 0)
        } catch {
            var outcome = failure(error, path: directory)
            if case .backupUnreadable = error {
                let path = directory + "/" + name
                outcome.text +=
                    "; nothing was changed. `workspaced check --state \(path)` says what is wrong and what a salvage "
                    + "keeps; `workspaced backups --restore \(name) --salvage` restores what it keeps"
            }
            return outcome
        }
    }

    /// What a restore did, one finding a line.
    private static func restoredLines(
        _ restored: RestoredBackup<Workspace>, into file: StateFile<Workspace>, current: Int
    ) -> [String] {
        let backup = restored.backup
        var text = [
            "restored \(backup.name) (\(backup.kind.rawValue), version \(restored.storedVersion), revision "
                + "\(restored.revision)) as \(file.path): \(holdings(restored.model))"
        ]
        if let salvage = restored.salvage {
            text.append("salvaged: \(salvage.summary); \(backup.name) itself is unchanged")
            text += salvage.details.map { "  \($0)" }
        }
        text.append(
            restored.previousKeptAs.map { "the state file before it is kept as \($0)" }
                ?? "there was no state file to keep")
        if restored.salvage == nil && restored.storedVersion < current {
            text.append("the next start migrates it from version \(restored.storedVersion) to \(current)")
        }
        if let problem = restored.handOverProblem {
            text.append(
                "warning: the hand-over could not be recorded (\(problem)); the next start reports an unclean stop")
        } else {
            text.append(
                "the next start continues it as lineage \(restored.lineage) at revision \(restored.revision) "
                    + "(a backup was restored; ETags read before are refused)")
        }
        return text
    }

    /// What a workspace holds, in a few words: `2 projects (5 panes), 1 favorites, owner ada`.
    static func holdings(_ workspace: Workspace) -> String {
        let panes = workspace.projects.reduce(0) { $0 + $1.panes.count }
        return "\(workspace.projects.count) projects (\(panes) panes), \(workspace.favorites.count) favorites, "
            + "owner \(workspace.owner.alias.isEmpty ? "(none)" : workspace.owner.alias)"
    }

    /// Keeps `workspace.json` in `directory` as `workspace.json.manual-<UTC time>.bak`, durably and without the
    /// state lock, so that it can run beside the daemon: every save is an atomic replace, so the backup holds one
    /// whole save, the last one (a change made within the save debounce may only be in the daemon's journal; stop
    /// the service first for a backup with every change). A backup that already holds the same bytes is named
    /// instead of making another. No state file is 66.
    package static func makeBackup(
        stateDirectory directory: String, schema: StateSchema<Workspace> = WorkspaceSchema.shipped
    ) -> Outcome {
        let file = readOnlyFile(statePath(inStateDirectory: directory), schema: schema)
        do {
            guard let kept = try file.keepManualBackup() else {
                return Outcome(text: "\(file.path): no such file; no backup made", status: missing)
            }
            let text =
                kept.isNew
                ? "kept \(file.path) as \(kept.backup.name) (\(kept.backup.size) bytes)"
                : "\(file.path) is kept already: \(kept.backup.name) (\(kept.backup.kind.rawValue)) holds the same "
                    + "bytes; no backup made"
            return Outcome(text: lines([text] + StateDirectoryOwner.handBack(file.directory)), status: 0)
        } catch {
            return failure(error, path: directory)
        }
    }
}
