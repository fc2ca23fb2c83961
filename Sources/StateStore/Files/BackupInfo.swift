import FoundationEssentials

/// A file kept next to a state file that ``StateFile/restoreBackup(named:salvaging:)`` can put back: a backup, or
/// a copy a load set aside.
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
        /// A file a load found corrupt and set aside (`<name>.corrupt-<time>`): a quarantined file, or the
        /// original bytes of a salvaged one. Listed only with `includingSetAside`.
        case corrupt
        /// The file the crash-loop guard set aside last (`<name>.corrupt-<time>`, the one
        /// ``StateFile/crashGuardRecord()`` names), because its loads never finished. Listed only with
        /// `includingSetAside`.
        case crashedLoad = "crashed-load"

        /// Whether a load set the file aside (it is named `<name>.corrupt-…` and pruned with the quarantined
        /// copies) rather than a backup (`….bak`).
        public var isSetAside: Bool { self == .corrupt || self == .crashedLoad }
    }

    /// The file name, which ``StateFile/restoreBackup(named:salvaging:)`` takes.
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
