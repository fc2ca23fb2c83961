import FoundationEssentials

/// A point-in-time report of a ``PersistentState``, for a status endpoint and logs.
public struct PersistenceStatus: Sendable, Equatable {
    /// The revision of the latest accepted change (0 is the state as loaded).
    public var revision: UInt64
    /// The latest revision known to be on disk: in the state file (after its directory fsync), or in the change
    /// journal (after its fdatasync) for a journaled state.
    public var durableRevision: UInt64
    /// The revision the state file holds on disk (its last durable snapshot); the same as ``durableRevision``
    /// without a change journal.
    public var savedRevision: UInt64
    /// Whether accepted changes are not yet in the state file, or the file must be written again though no change
    /// was applied (``fileNeedsRewrite``): a snapshot is due.
    public var isDirty: Bool { revision > savedRevision || fileNeedsRewrite }
    /// The change journal, for a journaled state; `nil` without one.
    public var journal: JournalStatus?
    /// Whether the file does not yet hold the state as this program writes it, though every revision is counted
    /// durable: ``PersistentState/saveSynchronously()`` was asked for (after a load that migrated, repaired or
    /// salvaged the state) and no save has succeeded since. Saves are retried until one does.
    public var fileNeedsRewrite = false
    /// The revision the save running now writes, or nil when no save is running.
    public var savingRevision: UInt64?
    /// Whether a save is running now.
    public var isSaving: Bool { savingRevision != nil }
    /// Whether the state refuses changes.
    public var isClosed: Bool
    /// When the last successful save finished.
    public var lastSaveDate: Date?
    /// How long the last successful save took, from the snapshot to the directory fsync.
    public var lastSaveDuration: Duration?
    /// How long the last save held the owner's lock to take its snapshot: all a save blocks changes for.
    public var lastSnapshotDuration: Duration?
    /// Bytes written by the last successful save.
    public var lastSaveByteCount: Int?
    /// The error of the most recent failed save, until a save succeeds.
    public var lastError: PersistenceError?
    /// When ``lastError`` happened.
    public var lastErrorDate: Date?
    /// Saves that failed in a row since the last success.
    public var consecutiveFailures: Int
    /// Successful saves (file writes) since the state was created.
    public var savesPerformed: Int
    /// Failed saves since the state was created.
    public var savesFailed: Int
    /// Accepted changes that did not need a write of their own because a save took them together with later
    /// ones: the sum over successful saves of (revisions the save made durable − 1).
    public var changesCoalesced: UInt64

    /// A status with every field given; the engine builds these.
    public init(
        revision: UInt64 = 0, durableRevision: UInt64 = 0, savedRevision: UInt64? = nil, savingRevision: UInt64? = nil,
        isClosed: Bool = false,
        lastSaveDate: Date? = nil, lastSaveDuration: Duration? = nil, lastSaveByteCount: Int? = nil,
        lastError: PersistenceError? = nil, lastErrorDate: Date? = nil, consecutiveFailures: Int = 0,
        savesPerformed: Int = 0, savesFailed: Int = 0, changesCoalesced: UInt64 = 0
    ) {
        self.revision = revision
        self.durableRevision = durableRevision
        self.savedRevision = savedRevision ?? durableRevision
        self.savingRevision = savingRevision
        self.isClosed = isClosed
        self.lastSaveDate = lastSaveDate
        self.lastSaveDuration = lastSaveDuration
        self.lastSaveByteCount = lastSaveByteCount
        self.lastError = lastError
        self.lastErrorDate = lastErrorDate
        self.consecutiveFailures = consecutiveFailures
        self.savesPerformed = savesPerformed
        self.savesFailed = savesFailed
        self.changesCoalesced = changesCoalesced
    }
}
