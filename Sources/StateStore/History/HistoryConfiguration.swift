/// How much of its past a journaled ``PersistentState`` keeps: the journal segments a snapshot would drop and the
/// snapshots they continue, in `<name>.history/` beside the state file, so that the state at any kept revision can
/// be read and gone back to.
///
/// History is pruned oldest first once it is older than ``keepSeconds`` or larger than ``maximumByteCount``;
/// either at `0` turns it off (``off``), and compaction then deletes what it drops, as without history.
public struct HistoryConfiguration: Sendable, Equatable {
    /// How long a change stays in the history, in seconds: 7 days by default.
    public var keepSeconds: Int
    /// The bytes the history may take: 64 MiB by default. The snapshot the oldest kept change needs is counted.
    public var maximumByteCount: Int

    /// A history kept for `keepSeconds` within `maximumByteCount` bytes.
    public init(keepSeconds: Int = 7 * 24 * 3600, maximumByteCount: Int = 64 << 20) {
        self.keepSeconds = max(0, keepSeconds)
        self.maximumByteCount = max(0, maximumByteCount)
    }

    /// No history: compaction deletes what it drops.
    public static let off = HistoryConfiguration(keepSeconds: 0, maximumByteCount: 0)

    /// Whether history is kept.
    public var isEnabled: Bool { keepSeconds > 0 && maximumByteCount > 0 }
}
