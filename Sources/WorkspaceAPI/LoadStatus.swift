import FoundationEssentials

/// The story of the daemon's last load of its state file, as `GET /v1/status` tells it (`load`): where the state
/// came from, what a migration did and where the original was kept, what was quarantined, salvaged, repaired or
/// defaulted, and how long it took.
public struct LoadStatus: Codable, Sendable, Equatable {
    /// Where the state came from: `file`, `noFile` (started empty), `quarantined` (a corrupt file was moved aside;
    /// the state came from ``restoredFromBackup``, or started empty without one), `salvaged` (read what could be
    /// read; the original kept) or `imported` (from a legacy path).
    public var source: String
    /// The one line the journal and the ready `STATUS=` carry.
    public var summary: String
    /// The version stored in the file; `nil` when no file was read.
    public var storedVersion: Int?
    /// The version this release writes.
    public var currentVersion: Int
    /// The version migrated from; `nil` when no migration step ran.
    public var migratedFrom: Int?
    /// The version migrated to; `nil` when no migration step ran.
    public var migratedTo: Int?
    /// The migration steps that ran, in order, as `from->to`.
    public var steps: [String]
    /// Where the original of a migrated file was kept (`<name>.v<old>.bak`); `nil` when nothing was migrated, and
    /// while the save after the migration (made before READY=1) has not succeeded.
    public var backupPath: String?
    /// Where a corrupt file was moved (policy `quarantine`); `nil` otherwise.
    public var quarantinePath: String?
    /// Where the original of a salvaged file was kept; `nil` without a salvage.
    public var salvageOriginalPath: String?
    /// How many records a salvage dropped and fields it coerced or defaulted; `nil` without a salvage.
    public var salvageChanges: Int?
    /// The legacy file imported; `nil` without an import.
    public var importedFrom: String?
    /// Repairs made after migrating.
    public var repairs: Int
    /// Fields filled with their defaults, counted over all records.
    public var defaultedFields: Int
    /// Fields this release does not know, kept as they were, counted by path.
    public var unknownFieldsKept: Int
    /// Bytes read.
    public var bytes: Int
    /// When the load finished.
    public var loadedAt: Date
    /// How long it took, in milliseconds.
    public var loadMilliseconds: Double
    /// When the crash-loop guard set the state file aside before this load: how many of its loads never
    /// finished; `nil` otherwise.
    public var crashedLoadAttempts: Int? = nil
    /// Where that file's bytes were kept.
    public var crashedLoadPath: String? = nil
    /// The backup the state came from after the crash-loop guard or a quarantine set the state file aside; `nil`
    /// when none loaded (the state started empty) or nothing was set aside.
    public var restoredFromBackup: String? = nil

    /// A load status with every field.
    public init(
        source: String, summary: String, storedVersion: Int?, currentVersion: Int, migratedFrom: Int?,
        migratedTo: Int?, steps: [String], backupPath: String?, quarantinePath: String?,
        salvageOriginalPath: String?, salvageChanges: Int?, importedFrom: String?, repairs: Int, defaultedFields: Int,
        unknownFieldsKept: Int, bytes: Int, loadedAt: Date, loadMilliseconds: Double
    ) {
        self.source = source
        self.summary = summary
        self.storedVersion = storedVersion
        self.currentVersion = currentVersion
        self.migratedFrom = migratedFrom
        self.migratedTo = migratedTo
        self.steps = steps
        self.backupPath = backupPath
        self.quarantinePath = quarantinePath
        self.salvageOriginalPath = salvageOriginalPath
        self.salvageChanges = salvageChanges
        self.importedFrom = importedFrom
        self.repairs = repairs
        self.defaultedFields = defaultedFields
        self.unknownFieldsKept = unknownFieldsKept
        self.bytes = bytes
        self.loadedAt = loadedAt
        self.loadMilliseconds = loadMilliseconds
    }
}
