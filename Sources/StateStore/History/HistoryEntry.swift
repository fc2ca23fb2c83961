import FoundationEssentials

/// One change of a journaled ``PersistentState``'s history: the change as it was applied, with its revision,
/// when it was applied and who asked for it.
public struct HistoryEntry<Change: Sendable>: Sendable {
    /// The revision the change made.
    public var revision: UInt64
    /// When it was applied, to the millisecond; `nil` for a change journaled by a release that did not record
    /// times.
    public var date: Date?
    /// Who asked for it, as the caller of ``PersistentState/apply(_:origin:expecting:returning:applied:)`` named
    /// them (a peer's credentials, a tool); `nil` when not named.
    public var origin: String?
    /// The change.
    public var change: Change

    /// An entry with every field given.
    public init(revision: UInt64, date: Date?, origin: String?, change: Change) {
        self.revision = revision
        self.date = date
        self.origin = origin
        self.change = change
    }
}

/// Changes of the history, oldest first, and the revisions it spans.
public struct HistoryPage<Change: Sendable>: Sendable {
    /// The changes, oldest first.
    public var entries: [HistoryEntry<Change>]
    /// The oldest revision whose state the history can give: changes after it are listed.
    public var oldestRevision: UInt64
    /// The state's revision when the page was read.
    public var currentRevision: UInt64
    /// Whether changes after the last entry were left off by the limit.
    public var hasMore: Bool

    /// A page with every field given.
    public init(entries: [HistoryEntry<Change>], oldestRevision: UInt64, currentRevision: UInt64, hasMore: Bool) {
        self.entries = entries
        self.oldestRevision = oldestRevision
        self.currentRevision = currentRevision
        self.hasMore = hasMore
    }
}
