import FoundationEssentials
import StateStore

/// What `workspaced backups --json` prints: the backups and set-aside copies kept beside a state file, newest
/// first, as the text list shows them (an empty list when there are none).
package struct BackupsReport: Codable, Sendable, Equatable {
    /// One backup file.
    package struct Backup: Codable, Sendable, Equatable {
        /// The file name, which `backups --restore` takes.
        package var name: String
        /// The full path.
        package var path: String
        /// `pre-migration` (the bytes of a file before it was migrated), `before-restore` (the state file as it
        /// was before a backup was restored over it), `manual` (`workspaced backup`), `corrupt` (a file a load
        /// set aside as corrupt, or a salvaged file's original) or `crashed-load` (the file the crash-loop guard set
        /// aside last).
        package var kind: String
        /// The schema version of a pre-migration backup; absent for the other kinds.
        package var version: Int?
        /// Size in bytes.
        package var size: Int
        /// When it was written (ISO-8601, UTC).
        package var modifiedAt: Date

        /// The entry for `backup`.
        package init(_ backup: BackupInfo) {
            name = backup.name
            path = backup.path
            kind = backup.kind.rawValue
            version = backup.version
            size = backup.size
            modifiedAt = backup.modificationDate
        }
    }

    /// The state directory listed.
    package var stateDirectory: String
    /// The state file the backups belong to.
    package var stateFile: String
    /// The backups, newest first.
    package var backups: [Backup]

    /// A report with the given parts.
    package init(stateDirectory: String, stateFile: String, backups: [Backup]) {
        self.stateDirectory = stateDirectory
        self.stateFile = stateFile
        self.backups = backups
    }
}
