/// How a ``StateFile`` treats files it cannot read, what it keeps, and how it writes.
public struct StateFileConfiguration: Sendable, Equatable {
    /// What to do with a file that is not a readable state file.
    public var corruptFilePolicy: CorruptFilePolicy
    /// How many quarantined files to keep (newest first); at least 1.
    public var quarantinedFilesKept: Int
    /// How many pre-migration backups to keep (newest first); at least 1.
    public var backupsKept: Int
    /// Permission bits of the state file and its backups.
    public var fileMode: UInt32
    /// Whether saved files are indented for people.
    public var prettyPrinted: Bool
    /// Whether the file is locked against a second process.
    public var locking: Locking
    /// How many loads of the same file may begin and never finish before the next load sets the file aside
    /// (``StateFile/finishedLoading()``); `nil` turns the guard off. See ``LoadReport/crashedLoad``.
    public var crashedLoadLimit: Int?
    /// What a load serves after it quarantined a corrupt file (``CorruptFilePolicy/quarantine``, or a salvage that
    /// could keep nothing): by default the newest backup that loads, so that a broken file never starts the state
    /// from scratch while a good copy is on disk. See ``LoadReport/Quarantine/restoredFrom``.
    public var corruptFileFallback: CorruptFileFallback = .newestBackup
    /// Where the file's figures (loads, saves, the journal, the revision) are reported through swift-metrics, with
    /// the `Metrics` trait; by default the bootstrapped backend, named `state_store_*`. See ``StateMetrics``.
    public var metrics = StateMetrics()

    /// How a state file guards against a second process.
    public enum Locking: String, Sendable, Equatable {
        /// Take an exclusive advisory lock on `.<name>.lock` at load; a second process fails with
        /// ``StateStoreError/locked(lockPath:holder:)``. Required for writing.
        case exclusive
        /// No lock: for read-only inspection. Saving is refused and temporary files are not swept.
        case none
    }

    /// The defaults: quarantine corrupt files, keep 5 of them and 3 backups, mode 0600, compact, locked, no guard
    /// against loads that crash.
    public init(
        corruptFilePolicy: CorruptFilePolicy = .quarantine,
        quarantinedFilesKept: Int = 5,
        backupsKept: Int = 3,
        fileMode: UInt32 = 0o600,
        prettyPrinted: Bool = false,
        locking: Locking = .exclusive,
        crashedLoadLimit: Int? = nil
    ) {
        self.corruptFilePolicy = corruptFilePolicy
        self.quarantinedFilesKept = max(1, quarantinedFilesKept)
        self.backupsKept = max(1, backupsKept)
        self.fileMode = fileMode
        self.prettyPrinted = prettyPrinted
        self.locking = locking
        self.crashedLoadLimit = crashedLoadLimit.map { max(1, $0) }
    }
}

/// What a load serves in place of a corrupt file it quarantined.
public enum CorruptFileFallback: String, Sendable, Equatable, CaseIterable {
    /// The newest backup next to the state file (``StateFile/backups(includingSetAside:)``: pre-migration,
    /// before-restore and manual copies, never one set aside as corrupt) whose bytes load, written as the state
    /// file and loaded (migrated when it is older); the initial state only when none loads.
    case newestBackup = "newest-backup"
    /// The initial state.
    case initialState = "initial-state"
}

/// What to do with a state file that cannot be read (not JSON, truncated, wrong types, failed validation).
public enum CorruptFilePolicy: String, Sendable, Equatable, CaseIterable {
    /// Keep every record that can still be read (`StateSalvageable`): when the JSON and its version are readable
    /// but a record or field is not, the original bytes are kept as `<name>.corrupt-<UTC timestamp>` and the
    /// salvaged state is used, with what was dropped, coerced and defaulted in ``LoadReport/salvage``. A file that
    /// cannot be salvaged (not JSON, an unreadable version, a failed migration or validation, a required field
    /// outside any `@StateRecords` array) is quarantined.
    case salvage
    /// Move the bytes aside to `<name>.corrupt-<UTC timestamp>` and start from the initial state.
    case quarantine
    /// Throw ``StateStoreError/corrupt(path:reason:)`` and leave the file untouched.
    case refuse
}
