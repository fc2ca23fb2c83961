import FoundationEssentials

/// The change journal's part of a journaled ``PersistentState``'s state, guarded by the same lock as the model, so
/// that records are appended in revision order.
struct JournalEngineState: Sendable {
    /// A segment this owner appends to or appended to, until a durable snapshot holds all of its records.
    struct Segment: Sendable {
        var path: String
        var baseRevision: UInt64
        /// The open descriptor; closed (on the journal's queue, never while a sync uses it) when removed.
        var descriptor: Int32
        /// The revision of its last record (its base while it has none).
        var lastRevision: UInt64
        var byteCount: Int
        /// Records were written since its last fdatasync.
        var unsynced = false
        /// Its name may not be durable yet: a sync also fsyncs the directory (a snapshot's own does it too).
        var needsDirectorySync = true
    }

    /// The type of the changes this journal records: apply(_:) refuses any other.
    let changeType: ObjectIdentifier
    let configuration: JournalConfiguration
    /// Segments oldest first; appends go to the last one.
    var segments: [Segment] = []
    /// Segments found at the start whose changes the replayed state holds: removed after the first durable
    /// snapshot.
    var leftFromStart: [String] = []
    /// While set, the next segment starts the state's lineage without a snapshot: it relabels this lineage (the
    /// one the replayed state is in, `nil` without a state file) at its base.
    var relabels: Lineage??
    /// The revision of the last record appended.
    var appendedRevision: UInt64
    /// The revision up to which the journal is known to be on the device.
    var syncedRevision: UInt64
    /// Why changes are not acknowledged now (an append or a sync failed, or no segment could be started): they are
    /// applied, answered with ``PersistenceError/journalFailed(path:revision:underlying:)``, and saved with the next
    /// snapshot. `nil` while the journal works.
    var failure: PersistenceError?
    /// While ``failure`` is set: the base of the segment started after it; once a snapshot that includes this
    /// revision is durable, that segment holds every later change and acknowledgements resume.
    var resumesAt: UInt64?
    /// The observer was told of ``failure`` (`journalFailed`), so it is told when the journal works again. A
    /// start whose snapshot comes first sets ``failure`` without telling: nothing failed.
    var failureAnnounced = false
    /// A group sync is queued and has not started yet.
    var syncScheduled = false
    var syncsPerformed = 0
    var recordsAppended = 0
    var lastCompactionDate: Date?
    /// Whether changes are timed with markers (``JournalSegmentFormat/Marker``): while history is kept.
    var marksChanges = false
    /// The last marker written to the current segment; `nil` at the start of a segment.
    var lastMarker: JournalSegmentFormat.Marker?

    /// The state file's bytes (the loaded file's, then the last snapshot's): with ``configuration``, they set
    /// ``bound``.
    var stateByteCount: Int {
        didSet { bound = configuration.bound(stateByteCount: stateByteCount) }
    }
    /// The size past which a snapshot is taken at once (``JournalConfiguration/bound(stateByteCount:)``).
    private(set) var bound: Int

    init(changeType: ObjectIdentifier, configuration: JournalConfiguration, revision: UInt64, stateByteCount: Int) {
        self.changeType = changeType
        self.configuration = configuration
        self.appendedRevision = revision
        self.syncedRevision = revision
        self.stateByteCount = stateByteCount
        self.bound = configuration.bound(stateByteCount: stateByteCount)
    }

    /// Bytes of every segment still kept.
    var byteCount: Int { segments.reduce(0) { $0 + $1.byteCount } }

    /// Whether appending more would pass the bound: a snapshot is then taken at once.
    var isFull: Bool { byteCount >= bound }

    /// The status for ``PersistenceStatus/journal``.
    var status: JournalStatus {
        JournalStatus(
            segmentCount: segments.count, byteCount: byteCount,
            recordCount: segments.last.map { Int($0.lastRevision - $0.baseRevision) } ?? 0,
            appendedRevision: appendedRevision, syncedRevision: syncedRevision, syncsPerformed: syncsPerformed,
            recordsAppended: recordsAppended, lastCompactionDate: lastCompactionDate, failure: failure)
    }
}
