import FoundationEssentials

/// The change journal in `GET /v1/status` (docs/persistence.md, "The change journal").
public struct JournalStatusResponse: Codable, Sendable, Equatable {
    /// Segment files kept beside the state file (one after a snapshot drops the others).
    public var segments: Int
    /// Bytes of those files.
    public var bytes: Int
    /// Changes in the newest segment: those made since the last snapshot began.
    public var records: Int
    /// The revision the state file holds on disk (its last durable snapshot).
    public var snapshotRevision: UInt64
    /// The revision of the last change appended.
    public var appendedRevision: UInt64
    /// The revision up to which the journal is on the device (after its fdatasync).
    public var syncedRevision: UInt64
    /// Group syncs (fdatasync) performed since start: each makes every change appended before it durable.
    public var syncs: Int
    /// When a durable snapshot last dropped older segments.
    public var lastCompactionAt: Date?
    /// Why changes are answered 503 now (the journal failed), until a snapshot is durable; `nil` while it works.
    public var failing: String?
    /// What the start replayed from the journal: one line (changes replayed, torn bytes, segments kept aside).
    public var replayedAtStart: String?
    /// Changes the start replayed.
    public var recordsReplayedAtStart: Int

    /// A status with every field.
    public init(
        segments: Int, bytes: Int, records: Int, snapshotRevision: UInt64, appendedRevision: UInt64,
        syncedRevision: UInt64, syncs: Int, lastCompactionAt: Date?, failing: String?, replayedAtStart: String?,
        recordsReplayedAtStart: Int
    ) {
        self.segments = segments
        self.bytes = bytes
        self.records = records
        self.snapshotRevision = snapshotRevision
        self.appendedRevision = appendedRevision
        self.syncedRevision = syncedRevision
        self.syncs = syncs
        self.lastCompactionAt = lastCompactionAt
        self.failing = failing
        self.replayedAtStart = replayedAtStart
        self.recordsReplayedAtStart = recordsReplayedAtStart
    }
}
