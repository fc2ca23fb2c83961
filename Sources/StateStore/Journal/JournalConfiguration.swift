/// How a journaled ``PersistentState`` keeps its change journal.
///
/// The journal is bounded twice: by bytes, and by the state's size. A start after a crash replays the whole
/// journal after loading the state file, and replaying a byte of records costs about what loading a byte of state
/// does, so a journal larger than the state makes that start more than twice as slow as a clean one. Past
/// ``bound(stateByteCount:)`` a snapshot is taken at once, without waiting for the debounce; it writes the whole
/// state, so the bound never falls below ``minimumByteCount``, which keeps the snapshots of a small state as rare
/// as the debounce makes them under a steady stream of changes.
public struct JournalConfiguration: Sendable, Equatable {
    /// The size the journal may reach whatever the state's size: 16 MiB by default. It bounds both the disk the
    /// journal takes and the time a start after a crash spends replaying it.
    public var maximumByteCount: Int

    /// The journal's bound as a fraction of the state file's bytes (the last snapshot's, or the loaded file's):
    /// 0.5 by default, so that a start after a crash replays at most about half a load's worth.
    public var maximumStateFraction: Double

    /// The bound's floor, whatever the state's size (never above ``maximumByteCount``): 6 MiB by default, which
    /// holds more than the 5 s of a stream of 10,000 changes a second that the default maximum delay lets pass
    /// between snapshots.
    public var minimumByteCount: Int

    /// A configuration with the given bounds.
    public init(
        maximumByteCount: Int = 16 << 20, maximumStateFraction: Double = 0.5, minimumByteCount: Int = 6 << 20
    ) {
        self.maximumByteCount = maximumByteCount
        self.maximumStateFraction = maximumStateFraction
        self.minimumByteCount = minimumByteCount
    }

    /// The size past which a snapshot is taken for a state whose file holds `stateByteCount` bytes:
    /// `maximumStateFraction` of them, but at least ``minimumByteCount`` and at most ``maximumByteCount``.
    public func bound(stateByteCount: Int) -> Int {
        let relative = Double(max(stateByteCount, 0)) * max(maximumStateFraction, 0)
        let floor = min(minimumByteCount, maximumByteCount)
        guard relative.isFinite, relative < Double(maximumByteCount) else { return maximumByteCount }
        return max(floor, Int(relative))
    }
}
