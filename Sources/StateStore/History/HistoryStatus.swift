import FoundationEssentials

/// The history a journaled ``PersistentState`` keeps now, for a status page and `check` tools.
public struct HistoryStatus: Sendable, Equatable {
    /// A history file that failed its check.
    public struct Damage: Sendable, Equatable {
        /// The file.
        public var path: String
        /// What is wrong with it.
        public var reason: String

        /// A damage with every field given.
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// The history of an earlier lineage (before a restore, quarantine, salvage or import), kept until pruned.
    public struct Epoch: Sendable, Equatable {
        /// The lineage it continued.
        public var lineage: String
        /// Its oldest and newest revisions.
        public var revisions: ClosedRange<UInt64>
        /// Its files.
        public var fileCount: Int
        /// Their bytes.
        public var byteCount: Int

        /// An epoch with every field given.
        public init(lineage: String, revisions: ClosedRange<UInt64>, fileCount: Int, byteCount: Int) {
            self.lineage = lineage
            self.revisions = revisions
            self.fileCount = fileCount
            self.byteCount = byteCount
        }
    }

    /// The retention in force.
    public var configuration: HistoryConfiguration
    /// The directory the history lives in.
    public var directory: String
    /// The oldest revision of the current lineage whose state can be read; `nil` before the history holds any.
    public var oldestRevision: UInt64?
    /// When the change after ``oldestRevision`` was applied (or the snapshot at it taken); `nil` when unknown.
    public var oldestDate: Date?
    /// Snapshots kept.
    public var snapshotCount: Int
    /// Journal segments kept.
    public var segmentCount: Int
    /// Every file of the history (snapshots, segments, the manifest).
    public var fileCount: Int
    /// Their bytes.
    public var byteCount: Int
    /// Histories of earlier lineages, oldest first.
    public var olderEpochs: [Epoch]
    /// Files that failed their check.
    public var damaged: [Damage]
    /// Files a ``HistoryHold`` keeps because its reader (a replicator) has not released them yet; `0` without a hold.
    public var heldFileCount = 0
    /// Their bytes.
    public var heldByteCount = 0

    /// A status with every field given; the engine builds these.
    public init(
        configuration: HistoryConfiguration, directory: String, oldestRevision: UInt64? = nil,
        oldestDate: Date? = nil, snapshotCount: Int = 0, segmentCount: Int = 0, fileCount: Int = 0,
        byteCount: Int = 0, olderEpochs: [Epoch] = [], damaged: [Damage] = []
    ) {
        self.configuration = configuration
        self.directory = directory
        self.oldestRevision = oldestRevision
        self.oldestDate = oldestDate
        self.snapshotCount = snapshotCount
        self.segmentCount = segmentCount
        self.fileCount = fileCount
        self.byteCount = byteCount
        self.olderEpochs = olderEpochs
        self.damaged = damaged
    }
}
