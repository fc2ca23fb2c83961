import Foundation

/// A backup kept next to a state file, which ``StateFile/restoreBackup(named:)`` can put back.
public struct BackupInfo: Sendable, Equatable {
    /// Why the file exists.
    public enum Kind: String, Sendable, Hashable {
        /// The original bytes of a file that was migrated, kept before the first save (`<name>.v<N>.bak`); the
        /// newest ``StateFileConfiguration/backupsKept`` are kept.
        case preMigration = "pre-migration"
        /// The state file as it was before a backup was restored over it (`<name>.before-restore.<time>.bak`).
        case beforeRestore = "before-restore"
        /// A backup made on demand (`<name>.manual-<time>.bak`, ``StateFile/keepManualBackup()``); never pruned.
        case manual
    }

    /// The file name, which ``StateFile/restoreBackup(named:)`` takes.
    public var name: String
    /// The full path.
    public var path: String
    /// What kind of file it is.
    public var kind: Kind
    /// The schema version of a pre-migration backup, from its name; `nil` for the other kinds (a restore reads it).
    public var version: Int?
    /// Size in bytes.
    public var size: Int
    /// When it was written.
    public var modificationDate: Date
}
