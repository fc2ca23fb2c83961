/// Why a state file could not be loaded, saved, or restored; each case carries what an operator needs.
public enum StateStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another process holds the lock on the state file.
    case locked(lockPath: String, holder: String?)
    /// The lock file could not be opened or locked.
    case lockFailed(FileSystemError)
    /// The state file exists but could not be read (an I/O error, not a content problem: nothing is moved).
    case readFailed(FileSystemError)
    /// The file was written by a newer release that does not allow this one to read it. Nothing was changed.
    case newerVersion(path: String, stored: Int, minReaderVersion: Int?, current: Int)
    /// The file is corrupt and the policy is ``CorruptFilePolicy/refuse``. Nothing was changed.
    case corrupt(path: String, reason: String)
    /// The file is corrupt and could not be moved aside; it keeps its name (a half-done move is undone), and
    /// nothing was loaded, so nothing will overwrite it. `underlying` is the call that failed (`link`, `unlink`
    /// or the directory fsync).
    case quarantineFailed(path: String, reason: String, underlying: FileSystemError)
    /// The file could not be opened by the state file's ``StateFileSealing`` (a wrong or missing key, tampered
    /// or truncated bytes). It is never quarantined: nothing was changed and nothing will be written over it.
    case unsealFailed(path: String, reason: String)
    /// The model could not be encoded.
    case encodingFailed(path: String, description: String)
    /// A durable replace failed; see ``DurableWriteError`` for the stage and whether the old file is intact.
    case writeFailed(DurableWriteError)
    /// Writing is not allowed: the file has not been loaded, was refused, or is not locked.
    case notWritable(path: String, reason: String)
    /// No backup with that name exists next to the state file.
    case backupNotFound(name: String, directory: String)
    /// A backup cannot be restored because it is not readable by this release.
    case backupUnreadable(name: String, reason: String)
    /// A backup-related file operation failed.
    case backupFailed(FileSystemError)
    /// The file system cannot hard-link the state file to a backup (`linkError`: `EPERM`, `EXDEV`, `ENOTSUP` or
    /// `EMLINK`), and the durable copy made instead failed too; the state file was not written.
    case backupCopyFailed(linkError: FileSystemError, copy: DurableWriteError)
    /// The crash-loop guard's record of loads in progress (``StateFile/loadAttemptPath``) could not be written;
    /// before a load, nothing was read and the load did not happen.
    case loadRecordFailed(path: String, description: String)
    /// The state cannot be written as an older version (``StateFile/writeDown(_:to:)``); nothing was written.
    case downgradeRefused(path: String, DowngradeError)
    /// The change journal beside the state file cannot be read, kept aside or started (``JournalReplay``); the
    /// state was not used, and the journal's files are as they were.
    case journalFailed(path: String, reason: String, underlying: FileSystemError)

    /// A sentence an operator can act on.
    public var description: String {
        switch self {
        case .locked(let lockPath, let holder):
            let who = holder.map { " (held by pid \($0))" } ?? ""
            return "the state file is in use by another process\(who): lock \(lockPath)"
        case .lockFailed(let error):
            return "cannot lock the state file: \(error)"
        case .readFailed(let error):
            return "cannot read the state file: \(error)"
        case .newerVersion(let path, let stored, let minReader, let current):
            let needs = minReader.map { "needs a reader of version \($0) or later" } ?? "names no minReaderVersion"
            return "\(path) is version \(stored) and \(needs); this release reads up to version \(current). "
                + "The file was not changed: upgrade, or restore a backup"
        case .corrupt(let path, let reason):
            return "\(path) is not a readable state file (\(reason)); policy refuse: the file was not changed"
        case .quarantineFailed(let path, let reason, let underlying):
            return "\(path) is not a readable state file (\(reason)) and could not be moved aside: \(underlying)"
        case .unsealFailed(let path, let reason):
            return "\(path) cannot be opened (\(reason)); the file was not changed"
        case .encodingFailed(let path, let description):
            return "cannot encode the state for \(path): \(description)"
        case .writeFailed(let error):
            return error.description
        case .notWritable(let path, let reason):
            return "refusing to write \(path): \(reason)"
        case .backupNotFound(let name, let directory):
            return "no backup named \(name) in \(directory)"
        case .backupUnreadable(let name, let reason):
            return "backup \(name) cannot be restored: \(reason)"
        case .backupFailed(let error):
            return "backup operation failed: \(error)"
        case .backupCopyFailed(let linkError, let copy):
            return "cannot keep a backup: \(linkError); copying to \(copy.path) instead failed at "
                + "\(copy.stage.rawValue): \(copy.underlying)"
        case .loadRecordFailed(let path, let description):
            return "cannot update the record of loads in progress \(path): \(description)"
        case .downgradeRefused(let path, let error):
            return "cannot write \(path) as an older version: \(error); the file was not changed"
        case .journalFailed(let path, let reason, let underlying):
            return "change journal \(path): \(reason): \(underlying)"
        }
    }
}
