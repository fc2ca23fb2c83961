/// What a start did with the change journal it found beside the state file: the changes it replayed onto the
/// loaded (and migrated) snapshot, and what it could not replay.
///
/// A journal left by a clean stop holds no change, so everything here is zero. After a crash it holds the changes
/// made since the last snapshot, and ``recordsReplayed`` says how many came back. A journal that does not
/// continue the state file (another lineage, a gap) or a record that cannot be replayed is never silent:
/// the replay stops there, the files are kept aside (``keptAside``) and ``stopReason`` says why.
public struct JournalReplay: Sendable, Equatable, CustomStringConvertible {
    /// A journal segment that was not replayed and was moved out of the journal, with its bytes unchanged.
    public struct KeptAside: Sendable, Equatable {
        /// The segment's path in the journal.
        public var path: String
        /// Where its bytes are now; `nil` for a replay that only looks (`workspaced check`) and moves nothing.
        public var movedTo: String?
        /// Why it was not replayed.
        public var reason: String
    }

    /// Segment files read.
    public var segmentsRead = 0
    /// Bytes of the segment files read.
    public var byteCount = 0
    /// Changes applied onto the loaded state.
    public var recordsReplayed = 0
    /// Changes the snapshot already held (a crash after a snapshot, before its journal was dropped).
    public var recordsAlreadyInSnapshot = 0
    /// The revision the state file held.
    public var snapshotRevision: UInt64 = 0
    /// The revision after the replay: the snapshot's plus ``recordsReplayed``.
    public var revision: UInt64 = 0
    /// Bytes of a last record that a crash cut short, dropped: an append never completed, so never acknowledged.
    public var tornTailByteCount = 0
    /// Segments not replayed, kept aside.
    public var keptAside: [KeptAside] = []
    /// Why the replay stopped before the end of the journal; `nil` when it read every record.
    public var stopReason: String?
    /// How long reading and replaying took.
    public var duration: Duration = .zero

    /// An empty replay at `revision`.
    public init(snapshotRevision: UInt64 = 0) {
        self.snapshotRevision = snapshotRevision
        self.revision = snapshotRevision
    }

    /// One line: what was replayed, cut and kept aside.
    public var description: String {
        var parts = [
            "journal: \(recordsReplayed) change(s) replayed onto revision \(snapshotRevision)"
                + (recordsReplayed > 0 ? ", now at \(revision)" : "")
                + " (\(segmentsRead) segment(s), \(byteCount) bytes)"
        ]
        if recordsAlreadyInSnapshot > 0 { parts.append("\(recordsAlreadyInSnapshot) already in the snapshot") }
        if tornTailByteCount > 0 { parts.append("a torn last record of \(tornTailByteCount) bytes dropped") }
        if let stopReason { parts.append("stopped: \(stopReason)") }
        for aside in keptAside {
            parts.append("kept aside \(aside.path)" + (aside.movedTo.map { " as \($0)" } ?? "") + ": \(aside.reason)")
        }
        return parts.joined(separator: "; ")
    }
}
