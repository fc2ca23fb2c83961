import FoundationEssentials
import Glibc
import StateStore

/// The privileged half of the one-time legacy import, run by the unit's `ExecStartPre=+workspaced stage-legacy`
/// as root before the sandboxed daemon starts.
///
/// The legacy file may belong to another user with mode 0600, outside the paths the hardened unit can read. When
/// an import is due (no state file, no marker, a legacy file), this copies its bytes, unchanged and durably, to
/// `.legacy-import.json` in the state directory, owned by the state directory's owner (the service's dynamic
/// user), mode 0600. The daemon then imports from that copy, records the legacy path in the marker, and removes
/// the copy. The legacy file itself is only read. Everything else (decoding, migration, the marker) stays in the
/// unprivileged daemon.
package enum LegacyStaging {
    /// What staging did.
    package enum Outcome: Sendable, Equatable, CustomStringConvertible {
        /// `legacyStatePath` is empty: the import is off.
        case off
        /// No import is due: the state file or the marker exists.
        case notNeeded(reason: String)
        /// There is no legacy file.
        case noLegacyFile(path: String)
        /// The legacy file was copied for the daemon.
        case staged(from: String, to: String, bytes: Int)
        /// The copy could not be made; the daemon will try to read the legacy file itself and say why it cannot.
        case failed(reason: String)

        /// One line for the journal.
        package var description: String {
            switch self {
            case .off: "legacy import is off (legacyStatePath is empty)"
            case .notNeeded(let reason): "no legacy import due: \(reason)"
            case .noLegacyFile(let path): "no legacy state file at \(path)"
            case .staged(let from, let to, let bytes): "staged \(from) (\(bytes) bytes) as \(to) for the import"
            case .failed(let reason): "cannot stage the legacy state file: \(reason)"
            }
        }
    }

    /// Stages the legacy file for `configuration` when an import is due.
    package static func stage(
        _ configuration: DaemonConfiguration, fileSystem: any FileSystem = PosixFileSystem()
    ) -> Outcome {
        guard let legacy = configuration.legacyImport, let staged = legacy.stagedCopyPath else { return .off }
        if fileSystem.exists(configuration.statePath) {
            return .notNeeded(reason: "\(configuration.statePath) exists")
        }
        if fileSystem.exists(legacy.markerPath) {
            return .notNeeded(reason: "\(legacy.markerPath) exists (imported before)")
        }
        let bytes: Data
        do {
            guard let read = try fileSystem.readFile(at: legacy.sourcePath) else {
                return .noLegacyFile(path: legacy.sourcePath)
            }
            bytes = read
        } catch {
            return .failed(reason: "\(error)")
        }
        var owner = stat()
        guard stat(configuration.stateDirectory, &owner) == 0 else {
            return .failed(
                reason: "\(FileSystemError(operation: "stat", path: configuration.stateDirectory, errno: errno))")
        }
        do {
            try DurableWriter(fileSystem: fileSystem, mode: 0o600).write(bytes, to: staged)
        } catch {
            return .failed(reason: "\(error)")
        }
        guard chown(staged, owner.st_uid, owner.st_gid) == 0 else {
            let reason = "\(FileSystemError(operation: "chown", path: staged, errno: errno))"
            try? fileSystem.unlink(staged)
            return .failed(reason: reason)
        }
        return .staged(from: legacy.sourcePath, to: staged, bytes: bytes.count)
    }
}
