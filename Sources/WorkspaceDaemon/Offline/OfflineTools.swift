import Foundation
import StateStore
import WorkspaceClient
import WorkspaceModel

/// The daemon's offline tools: inspect, migrate, list and restore a state file without a running daemon.
///
/// Each returns the text to print and the exit status. `check` and `migrate --dry-run` only read (no lock, no
/// quarantine, no write). `migrate` and `restore` take the state lock, so they fail cleanly while the daemon
/// runs.
public enum OfflineTools {
    /// What a tool prints and how it exits.
    public struct Outcome: Sendable, Equatable {
        /// Text for standard output (or standard error when `status` is not 0).
        public var text: String
        /// The exit status.
        public var status: Int32
    }

    /// Exit status of `check` for a loadable file.
    public static let loadable = ExitStatus.success.rawValue
    /// Exit status of `check` for a corrupt file (`EX_DATAERR`).
    public static let corrupt = ExitStatus.dataError.rawValue
    /// Exit status when the file does not exist (`EX_NOINPUT`).
    public static let missing = ExitStatus.noInput.rawValue
    /// Exit status of `check` for a file newer than this release can open (`EX_TEMPFAIL`).
    public static let newer = ExitStatus.temporaryFailure.rawValue

    /// Reports what loading `path` would do: stored and target versions, steps, unknown keys, repairs, problems.
    public static func check(statePath path: String) -> Outcome {
        guard FileManager.default.fileExists(atPath: path) else {
            return Outcome(text: "\(path): no such file", status: missing)
        }
        let file = readOnlyFile(path)
        let report: LoadReport
        do {
            report = try file.load().report
        } catch {
            switch error {
            case .newerVersion(_, let stored, let minReader, let current):
                return Outcome(
                    text: lines([
                        "file: \(path)", "stored version: \(stored)",
                        "minReaderVersion: \(minReader.map(String.init) ?? "none")", "this release reads: \(current)",
                        "problem: \(error)",
                    ]), status: newer)
            case .corrupt(_, let reason):
                return Outcome(text: lines(["file: \(path)", "problem: corrupt: \(reason)"]), status: corrupt)
            default:
                return Outcome(text: "\(path): \(error)", status: 74)
            }
        }
        var output = [
            "file: \(path)",
            "stored version: \(report.storedVersion.map(String.init) ?? "?")",
            "target version: \(report.currentVersion)",
            "steps that would run: "
                + (report.stepsApplied.isEmpty
                    ? "none" : report.stepsApplied.map { "\($0.lowerBound)→\($0.upperBound)" }.joined(separator: ", ")),
        ]
        if report.isNewerCompatible { output.append("newer file, readable by this release (minReaderVersion allows)") }
        output.append(
            "unknown keys kept: "
                + (report.unknownKeysKept.isEmpty
                    ? "none"
                    : report.unknownKeysKept.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }
                        .joined(separator: ", ")))
        for (field, count) in report.fieldsDefaulted.sorted(by: { $0.key < $1.key }) {
            output.append("default: \(field) for \(count) record(s)")
        }
        output += report.warnings.map { "warning: \($0)" }
        output += report.repairs.map { "repair: \($0)" }
        output.append("problems: none; the file is loadable")
        return Outcome(text: lines(output), status: loadable)
    }

    /// Migrates `path` in place (keeping the pre-migration backup), or with `dryRun` prints the migrated JSON
    /// and writes nothing.
    public static func migrate(statePath path: String, dryRun: Bool) -> Outcome {
        guard FileManager.default.fileExists(atPath: path) else {
            return Outcome(text: "\(path): no such file", status: missing)
        }
        let file = dryRun ? readOnlyFile(path, prettyPrinted: true) : lockedFile(path)
        do {
            let loaded = try file.load()
            if dryRun {
                let data = try file.encode(loaded.model)
                return Outcome(text: String(decoding: data, as: UTF8.self), status: 0)
            }
            guard loaded.report.migrated else {
                return Outcome(
                    text: "\(path): already at version \(loaded.report.currentVersion); nothing to do", status: 0)
            }
            try file.save(loaded.model)
            let backups = (try? file.backups().filter { $0.kind == .preMigration }.first?.name) ?? nil
            return Outcome(
                text: "\(path): \(loaded.report.summary); backup \(backups ?? "(none)")", status: 0)
        } catch {
            return failure(error, path: path)
        }
    }

    /// Lists the backups next to `workspace.json` in `directory`.
    public static func listBackups(stateDirectory directory: String) -> Outcome {
        let file = readOnlyFile(directory + "/" + WorkspaceSchema.fileName)
        do {
            let backups = try file.backups()
            guard !backups.isEmpty else { return Outcome(text: "no backups in \(directory)", status: 0) }
            let formatter = ISO8601DateFormatter()
            return Outcome(
                text: lines(
                    backups.map {
                        "\($0.name)\t\($0.kind.rawValue)\t\($0.version.map { "v\($0)" } ?? "-")\t\($0.size) bytes\t"
                            + formatter.string(from: $0.modificationDate)
                    }), status: 0)
        } catch {
            return failure(error, path: directory)
        }
    }

    /// Restores the backup `name` in `directory` as the state file (the current one is kept as a backup).
    public static func restoreBackup(named name: String, stateDirectory directory: String) -> Outcome {
        let file = lockedFile(directory + "/" + WorkspaceSchema.fileName)
        do {
            try file.restoreBackup(named: name)
            return Outcome(text: "restored \(name) as \(file.path); it is migrated at the next start", status: 0)
        } catch {
            return failure(error, path: directory)
        }
    }

    private static func failure(_ error: StateStoreError, path: String) -> Outcome {
        let status: Int32
        switch error {
        case .newerVersion: status = newer
        case .corrupt: status = corrupt
        case .locked: status = 73
        case .backupNotFound: status = missing
        default: status = 74
        }
        return Outcome(text: "\(error)", status: status)
    }

    private static func schema() -> StateSchema<Workspace> {
        do {
            return try WorkspaceSchema.make()
        } catch {
            preconditionFailure("the workspace migration chain is invalid: \(error)")
        }
    }

    private static func readOnlyFile(_ path: String, prettyPrinted: Bool = false) -> StateFile<Workspace> {
        StateFile(
            path: path, schema: schema(),
            configuration: StateFileConfiguration(
                corruptFilePolicy: .refuse, prettyPrinted: prettyPrinted, locking: .none))
    }

    private static func lockedFile(_ path: String) -> StateFile<Workspace> {
        StateFile(path: path, schema: schema(), configuration: StateFileConfiguration(corruptFilePolicy: .refuse))
    }

    private static func lines(_ lines: [String]) -> String { lines.joined(separator: "\n") }
}
