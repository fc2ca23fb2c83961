import FoundationEssentials
import Glibc
import StateStore
import WorkspaceAPI
import WorkspaceModel
import WorkspaceStorage

/// The daemon's offline tools: inspect, migrate, list and restore a state file without a running daemon.
///
/// Each returns the text to print and the exit status. `check` and `migrate --dry-run` only read (no lock, no
/// quarantine, no write). `migrate` and `restore` take the state lock, so they fail cleanly while the daemon
/// runs. Their `schema` is the shipped one (``WorkspaceSchema/shipped``); the test executable's hooks
/// (`workspaced-testing`) pass one with an extra version, as the daemon's ``DaemonEnvironment/schema``.
package enum OfflineTools {
    /// What a tool prints and how it exits.
    package struct Outcome: Sendable, Equatable {
        /// Text for standard output (or standard error when `status` is not 0).
        package var text: String
        /// The exit status.
        package var status: Int32
        /// What the tool did, for standard error whatever the status (the text may be data, such as JSON).
        package var diagnostics: String = ""
    }

    /// Exit status of `check` for a loadable file.
    package static let loadable = ExitStatus.success.rawValue
    /// Exit status of `check` for a corrupt file (`EX_DATAERR`).
    package static let corrupt = ExitStatus.dataError.rawValue
    /// Exit status when the file does not exist (`EX_NOINPUT`).
    package static let missing = ExitStatus.noInput.rawValue
    /// Exit status of `check` for a file newer than this release can open (`EX_TEMPFAIL`).
    package static let newer = ExitStatus.temporaryFailure.rawValue

    /// Reports what loading `path` would do: stored and target versions, steps, unknown keys, repairs, problems,
    /// and for a file that does not load as it is, what a salvage would drop, coerce and default.
    ///
    /// Exit 0 for a file that loads as it is; 65 when it does not (whether or not a salvage could keep the rest);
    /// 75 for a file newer than this release reads. With `json`, the text is a ``CheckReport``.
    package static func check(
        statePath path: String, json: Bool = false, schema: StateSchema<Workspace> = WorkspaceSchema.shipped
    ) -> Outcome {
        guard FileManager.default.fileExists(atPath: path) else {
            // After a crash before the first snapshot the state is the change journal's: say what a start serves.
            if let report = inspect(path, schema: schema).report, let journal = report.journal,
                journal.changesToReplay > 0 || !journal.wouldKeepAside.isEmpty
            {
                var found = report
                found.noStateFile = true
                return Outcome(text: json ? CheckRendering.json(found) : CheckRendering.text(found), status: loadable)
            }
            return Outcome(text: "\(path): no such file", status: missing)
        }
        if let problem = serviceAccessProblem(path) {
            return Outcome(text: "the service cannot read its state file: \(problem)", status: permissionDenied)
        }
        let result = inspect(path, schema: schema)
        guard let report = result.report else {
            return Outcome(text: result.errorText ?? "\(path): cannot be read", status: 74)
        }
        let status: Int32
        switch report.verdict {
        case .loadable: status = loadable
        case .salvageable, .corrupt: status = corrupt
        case .newer: status = newer
        }
        return Outcome(text: json ? CheckRendering.json(report) : CheckRendering.text(report), status: status)
    }

    /// Exit status of `check` for a file the service's user may not read (`EX_NOPERM`).
    package static let permissionDenied = ExitStatus.permissionDenied.rawValue

    /// What the service meets reading `path`, when this process is root and the state directory belongs to another
    /// user (the service's, under `DynamicUser=`): root reads any file, the service only what its mode allows.
    static func serviceAccessProblem(_ path: String) -> FileAccessProblem? {
        var directory = stat()
        let parent = PathText.deletingLastComponent(of: path)
        guard geteuid() == 0, stat(parent.isEmpty ? "." : parent, &directory) == 0, directory.st_uid != 0 else {
            return nil
        }
        return FileAccessProblem.reading(path, as: directory.st_uid, gid: directory.st_gid)
    }

    /// The check's findings, or the text of an error that is not about the file's content (such as `EACCES`).
    private static func inspect(
        _ path: String, schema: StateSchema<Workspace>
    ) -> (report: CheckReport?, errorText: String?) {
        var report = CheckReport(
            file: path, verdict: .loadable, problem: nil, storedVersion: nil, targetVersion: schema.currentVersion,
            steps: [], unknownKeysKept: [:], fieldsDefaulted: [:], warnings: [], repairs: [], salvage: nil)
        let file = readOnlyFile(path, schema: schema, policy: .salvage)
        (report.unfinishedLoads, report.lastCrashedLoad) = file.crashGuardRecord()
        let state: LoadedState<Workspace>
        do {
            state = try file.load()
        } catch {
            switch error {
            case .newerVersion(_, let stored, _, _):
                report.verdict = .newer
                report.storedVersion = stored
                report.problem = "\(error)"
            case .corrupt(_, let reason):
                report.verdict = .corrupt
                report.problem = reason
            default:
                return (nil, "\(path): \(error)")
            }
            return (report, nil)
        }
        let loaded = state.report
        report.storedVersion = loaded.storedVersion
        report.lowestVersion = schema.lowestReachableVersion
        report.steps = loaded.stepsApplied.map { "\($0.lowerBound)→\($0.upperBound)" }
        report.unknownKeysKept = loaded.unknownKeysKept
        report.fieldsDefaulted = loaded.fieldsDefaulted
        report.fieldsTakenBack = loaded.fieldsTakenBack
        report.warnings = loaded.warnings
        report.repairs = loaded.repairs
        if case .mismatch(let recorded, let computed) = loaded.contentChecksum {
            report.changedOutsideDaemon = CheckReport.ChecksumMismatch(recorded: recorded, computed: computed)
        }
        if let salvage = loaded.salvage {
            report.verdict = .salvageable
            report.problem = salvage.reason
            report.salvage = CheckReport.Salvage(salvage)
        }
        do {
            report.journal = CheckReport.Journal(try file.replayingJournal(WorkspaceChange.self, onto: state).replay)
        } catch {
            return (nil, "\(path): \(error)")
        }
        report.history = file.checkHistory(WorkspaceChange.self, lineage: loaded.storedLineage ?? file.lineage)
            .map(CheckReport.History.init)
        return (report, nil)
    }

    /// Migrates `path` in place (keeping the pre-migration backup), or with `dryRun` prints the migrated JSON
    /// and writes nothing. With `version` below the current one, writes the state down to that version instead
    /// (``migrateDown(statePath:to:dryRun:)``).
    package static func migrate(
        statePath path: String, dryRun: Bool, to version: Int? = nil,
        schema: StateSchema<Workspace> = WorkspaceSchema.shipped
    ) -> Outcome {
        guard FileManager.default.fileExists(atPath: path) else {
            return Outcome(text: "\(path): no such file", status: missing)
        }
        if let version, version != schema.currentVersion {
            return migrateDown(statePath: path, to: version, dryRun: dryRun, schema: schema)
        }
        let file = dryRun ? readOnlyFile(path, schema: schema, prettyPrinted: true) : lockedFile(path, schema: schema)
        do {
            let loaded = try file.load()
            if dryRun {
                let data = try file.encode(loaded.model)
                return Outcome(text: String(decoding: data, as: UTF8.self), status: 0)
            }
            guard loaded.report.migrated else {
                recordCleanStop(file)
                return Outcome(
                    text: "\(path): already at version \(loaded.report.currentVersion); nothing to do", status: 0)
            }
            try file.save(loaded.model)
            recordCleanStop(file)
            // The backup holding the original bytes: a new one, or an earlier one with the same bytes.
            let backups = file.preMigrationBackupPath.map { PathText.lastComponent(of: $0) }
            let handed = StateDirectoryOwner.handBack(file.directory)
            return Outcome(
                text: lines(["\(path): \(loaded.report.summary); backup \(backups ?? "(none)")"] + handed), status: 0)
        } catch {
            return failure(error, path: path)
        }
    }

    /// Writes the state in `path` down to `version` for an older release, through the reverse steps: the current
    /// file is kept as `workspace.json.v<its version>.bak` first. Prints what was set aside in unknown fields and
    /// what took a default. With `dryRun`, prints the JSON it would write (and the same report on standard error)
    /// and writes nothing. A file already at `version` or older is left alone. A version out of reach is refused
    /// with 64 (`EX_USAGE`) before anything changes.
    package static func migrateDown(
        statePath path: String, to version: Int, dryRun: Bool, schema: StateSchema<Workspace> = WorkspaceSchema.shipped
    ) -> Outcome {
        let file = dryRun ? readOnlyFile(path, schema: schema, prettyPrinted: true) : lockedFile(path, schema: schema)
        do {
            let loaded = try file.load()
            if let stored = loaded.report.storedVersion, stored <= version {
                // Going up and down again would run every step to the current version and back, losing what a
                // one-way field drop loses: a release that reads `version` migrates an older file itself.
                let note = stored == version ? "" : ", which a release reading version \(version) migrates itself"
                return Outcome(text: "\(path): already at version \(stored)\(note); nothing to do", status: 0)
            }
            if dryRun {
                let down = try StateCodec(schema: schema, prettyPrinted: true).encode(loaded.model, downTo: version)
                return Outcome(
                    text: String(decoding: down.data, as: UTF8.self), status: 0,
                    diagnostics: lines(downgradeLines(down, path: path, dryRun: true)))
            }
            let written = try file.writeDown(loaded.model, to: version)
            var text = downgradeLines(written.downgraded, path: path, dryRun: false)
            text.append("backup: \(written.backupPath.map { PathText.lastComponent(of: $0) } ?? "(none)")")
            // Run as root (a package's maintainer script), the files must stay the service's dynamic user's.
            text += StateDirectoryOwner.handBack(file.directory)
            return Outcome(text: lines(text), status: 0)
        } catch let error as DowngradeError {
            return Outcome(text: "\(path): \(error); the file was not changed", status: usage)
        } catch let error as StateStoreError {
            if case .downgradeRefused(_, let refusal) = error {
                return Outcome(text: "\(path): \(refusal); the file was not changed", status: usage)
            }
            return failure(error, path: path)
        } catch {
            return Outcome(text: "\(path): \(error)", status: 74)
        }
    }

    /// Writes the state in `path` for the older release `release`: down to the schema version the release table
    /// (``ReleaseSchemas``) says it reads, as ``migrateDown(statePath:to:dryRun:)`` does; nothing to do when it
    /// reads the current version. A release the table does not know is refused with 64.
    package static func migrate(
        statePath path: String, forRelease release: String, dryRun: Bool,
        schema: StateSchema<Workspace> = WorkspaceSchema.shipped
    ) -> Outcome {
        guard let version = ReleaseSchemas.schemaVersion(forRelease: release) else {
            return unknownRelease(release)
        }
        guard FileManager.default.fileExists(atPath: path) else {
            return Outcome(text: "\(path): no such file; nothing to do for release \(release)", status: 0)
        }
        guard version < schema.currentVersion else {
            return Outcome(
                text: "\(path): release \(release) reads schema version \(version); nothing to do", status: 0)
        }
        var outcome = migrateDown(statePath: path, to: version, dryRun: dryRun, schema: schema)
        if outcome.status == 0 { outcome.text = "release \(release) reads schema version \(version)\n" + outcome.text }
        return outcome
    }

    /// Whether a downgrade to the older release `release` must stop the service and write the state in `path`
    /// down, reading only. 0 when `release` reads an older schema than `schema` writes: the service must stop, so
    /// that it cannot migrate the file past what `release` reads, and the file is written down when it is above
    /// that (which the text says, and checks it can be). 1 when `release` reads this schema: nothing to do. 64
    /// when it cannot be done (a release the table does not know, a version out of reach), and the statuses of
    /// ``check(statePath:json:schema:)`` for a file that does not load.
    package static func writeDownNeeded(
        statePath path: String, forRelease release: String,
        schema: StateSchema<Workspace> = WorkspaceSchema.shipped
    ) -> Outcome {
        guard let version = ReleaseSchemas.schemaVersion(forRelease: release) else {
            return unknownRelease(release)
        }
        guard version < schema.currentVersion else {
            return Outcome(
                text: "release \(release) reads schema version \(version), as this one does; nothing to do",
                status: notNeeded)
        }
        let reads = "release \(release) reads schema version \(version), this one writes \(schema.currentVersion)"
        guard FileManager.default.fileExists(atPath: path) else {
            return Outcome(text: "\(reads); \(path) does not exist: nothing to write", status: 0)
        }
        do {
            let loaded = try readOnlyFile(path, schema: schema).load()
            let stored = loaded.report.storedVersion ?? schema.currentVersion
            guard stored > version else {
                return Outcome(text: "\(reads); \(path) is at version \(stored): nothing to write", status: 0)
            }
            let down = try StateCodec(schema: schema).encode(loaded.model, downTo: version)
            let setAside = down.fieldsSetAside.values.reduce(0, +)
            return Outcome(
                text: "\(reads); \(path), at version \(stored), is written down to \(version) (\(setAside) "
                    + "field(s) set aside in unknown fields)", status: 0)
        } catch let error as DowngradeError {
            return Outcome(text: "\(path): \(error); the file was not changed", status: usage)
        } catch let error as StateStoreError {
            return failure(error, path: path)
        } catch {
            return Outcome(text: "\(path): \(error)", status: 74)
        }
    }

    /// Exit status of ``writeDownNeeded(statePath:forRelease:schema:)`` when the release reads this schema.
    package static let notNeeded: Int32 = 1

    private static func unknownRelease(_ release: String) -> Outcome {
        let known = ReleaseSchemas.shipped.map(\.release).joined(separator: ", ")
        return Outcome(
            text: "release \(release) is not in this release's table (\(known)): which schema it reads is "
                + "unknown; the file was not changed", status: usage)
    }

    /// Exit status of `migrate --to` for a version the state cannot be written as (`EX_USAGE`).
    package static let usage = ExitStatus.usage.rawValue

    /// What a write down did, one finding per line.
    private static func downgradeLines(_ down: DowngradedState, path: String, dryRun: Bool) -> [String] {
        var output = ["\(path): \(dryRun ? "would be " : "")\(down.summary)"]
        for (field, count) in down.fieldsSetAside.sorted(by: { $0.key < $1.key }) {
            output.append("set aside in unknown fields: \(field) for \(count) record(s)")
        }
        for (field, count) in down.fieldsDefaulted.sorted(by: { $0.key < $1.key }) {
            output.append("default: \(field) for \(count) record(s)")
        }
        output += down.warnings.map { "warning: \($0)" }
        return output
    }

    /// Leaves the lock file saying that this owner stopped cleanly with the file as written, so that the daemon's
    /// next start continues the state's lineage: a migration hands out no revision.
    private static func recordCleanStop(_ file: StateFile<Workspace>) {
        do {
            try file.recordCleanStop(revision: file.revision)
        } catch {
            // The daemon then starts a new lineage: a client's ETag is refused once more than needed, no worse.
        }
    }

    /// The outcome of a tool that failed with `error` on `path`, with the exit status the error calls for.
    static func failure(_ error: StateStoreError, path: String) -> Outcome {
        let status: Int32
        switch error {
        case .newerVersion: status = newer
        case .corrupt: status = corrupt
        case .locked: status = 73
        case .backupNotFound: status = missing
        case .backupUnreadable: status = corrupt
        default: status = 74
        }
        return Outcome(text: "\(error)", status: status)
    }

    /// The state file at `path` opened to read only: no lock, no quarantine, no write.
    static func readOnlyFile(
        _ path: String, schema: StateSchema<Workspace>, prettyPrinted: Bool = false,
        policy: CorruptFilePolicy = .refuse
    ) -> StateFile<Workspace> {
        StateFile(
            path: path, schema: schema,
            configuration: StateFileConfiguration(
                corruptFilePolicy: policy, prettyPrinted: prettyPrinted, locking: .none))
    }

    /// The state file at `path` opened as its owner: it takes the lock, and refuses a corrupt file.
    static func lockedFile(_ path: String, schema: StateSchema<Workspace>) -> StateFile<Workspace> {
        StateFile(path: path, schema: schema, configuration: StateFileConfiguration(corruptFilePolicy: .refuse))
    }

    /// `lines`, one a line.
    static func lines(_ lines: [String]) -> String { lines.joined(separator: "\n") }
}
