import FoundationEssentials

/// The change journal of a journaled ``PersistentState`` now, for a status page.
public struct JournalStatus: Sendable, Equatable {
    /// Segment files kept (one, after a snapshot's compaction).
    public var segmentCount: Int
    /// Bytes of those files.
    public var byteCount: Int
    /// Changes in the newest segment: those made since the last snapshot started.
    public var recordCount: Int
    /// The revision of the last change appended.
    public var appendedRevision: UInt64
    /// The revision up to which the journal is known to be on the device (after its fdatasync).
    public var syncedRevision: UInt64
    /// Group syncs (fdatasync) performed: each makes every change appended before it durable at once.
    public var syncsPerformed: Int
    /// Changes appended since the state was created.
    public var recordsAppended: Int
    /// When a durable snapshot last let older segments go.
    public var lastCompactionDate: Date?
    /// Why changes are answered with ``PersistenceError/journalFailed(path:revision:underlying:)`` now, until a
    /// snapshot succeeds; `nil` while the journal works.
    public var failure: PersistenceError?

    /// A status with every field given; the engine builds these.
    public init(
        segmentCount: Int = 0, byteCount: Int = 0, recordCount: Int = 0, appendedRevision: UInt64 = 0,
        syncedRevision: UInt64 = 0, syncsPerformed: Int = 0, recordsAppended: Int = 0,
        lastCompactionDate: Date? = nil, failure: PersistenceError? = nil
    ) {
        self.segmentCount = segmentCount
        self.byteCount = byteCount
        self.recordCount = recordCount
        self.appendedRevision = appendedRevision
        self.syncedRevision = syncedRevision
        self.syncsPerformed = syncsPerformed
        self.recordsAppended = recordsAppended
        self.lastCompactionDate = lastCompactionDate
        self.failure = failure
    }
}
