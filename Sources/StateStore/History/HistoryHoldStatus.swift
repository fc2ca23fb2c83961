import FoundationEssentials

/// What a ``HistoryHold`` let its history prune before the reader released it, since the process started.
public struct HistoryHoldStatus: Sendable, Equatable {
    /// Held files pruned because the history reached the hold's maximum.
    public var droppedFileCount = 0
    /// Their bytes.
    public var droppedByteCount = 0
    /// The newest revision among them: the reader misses the changes up to it that it had not copied.
    public var newestDroppedRevision: UInt64?
    /// When the last of them was pruned.
    public var lastDropped: Date?

    /// A status of nothing dropped.
    public init() {}
}

/// What a ``HistoryHold`` tells its observer.
public enum HistoryHoldEvent: Sendable, Equatable {
    /// A held file of the history.
    public struct DroppedFile: Sendable, Equatable {
        /// Its name in the history directory.
        public var name: String
        /// Its bytes.
        public var byteCount: Int
        /// The snapshot's revision, or the segment's first (its base).
        public var firstRevision: UInt64
        /// The snapshot's revision, or the segment's last change.
        public var lastRevision: UInt64

        /// A file with every field given.
        public init(name: String, byteCount: Int, firstRevision: UInt64, lastRevision: UInt64) {
            self.name = name
            self.byteCount = byteCount
            self.firstRevision = firstRevision
            self.lastRevision = lastRevision
        }
    }

    /// The history reached the hold's `maximumByteCount` (at `historyByteCount` bytes) and pruned `files`, which
    /// the reader had not released: `byteCount` bytes of changes it will not copy.
    case pruned(files: [DroppedFile], byteCount: Int, historyByteCount: Int, maximumByteCount: Int)
}
