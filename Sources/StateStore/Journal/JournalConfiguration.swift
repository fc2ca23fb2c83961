/// How a journaled ``PersistentState`` keeps its change journal.
public struct JournalConfiguration: Sendable, Equatable {
    /// The size the journal may reach before a snapshot is taken at once, without waiting for the debounce:
    /// 16 MiB by default. It bounds both the disk the journal takes and the time a start after a crash spends
    /// replaying it.
    public var maximumByteCount: Int

    /// A configuration with the given bound.
    public init(maximumByteCount: Int = 16 << 20) {
        self.maximumByteCount = maximumByteCount
    }
}
