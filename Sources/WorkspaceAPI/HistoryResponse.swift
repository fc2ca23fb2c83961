import FoundationEssentials
import WorkspaceModel

/// `GET /v1/history`: a page of the changes the history keeps, oldest first, and the revisions it spans.
public struct HistoryResponse: Codable, Sendable, Equatable {
    /// The changes, oldest first (newest last).
    public var entries: [HistoryEntryResponse]
    /// The oldest revision whose state the history can give: the changes after it can be listed.
    public var oldestRevision: UInt64
    /// The state's revision when the page was read.
    public var currentRevision: UInt64
    /// Whether the limit left changes off: with `since`, changes after the last entry (ask again with `since` set
    /// to its revision); without it, changes before the first.
    public var hasMore: Bool

    /// A page with every field given.
    public init(entries: [HistoryEntryResponse], oldestRevision: UInt64, currentRevision: UInt64, hasMore: Bool) {
        self.entries = entries
        self.oldestRevision = oldestRevision
        self.currentRevision = currentRevision
        self.hasMore = hasMore
    }
}

/// One change of `GET /v1/history`: its revision, when and by whom it was made, its operation and the records it
/// touched.
///
/// Every key is written, `null` included, so the shape is always the same.
public struct HistoryEntryResponse: Codable, Sendable, Equatable {
    /// The revision the change made.
    public var revision: UInt64
    /// When it was applied; `nil` for a change journaled by a release that did not record times.
    public var time: Date?
    /// The operation, as its `change` event names it (`project.update`, ``WorkspaceChange/operation``).
    public var operation: String
    /// The records it touched (``WorkspaceChange/recordIDs``): the one it names first.
    public var ids: [WorkspaceID]
    /// Who asked for it (`uid 1000 pid 4242`); `nil` when unknown.
    public var peer: String?

    /// An entry with every field given.
    public init(revision: UInt64, time: Date?, operation: String, ids: [WorkspaceID], peer: String?) {
        self.revision = revision
        self.time = time
        self.operation = operation
        self.ids = ids
        self.peer = peer
    }

    private enum CodingKeys: String, CodingKey { case revision, time, operation, ids, peer }

    /// Writes every key, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(revision, forKey: .revision)
        try container.encode(time, forKey: .time)
        try container.encode(operation, forKey: .operation)
        try container.encode(ids, forKey: .ids)
        try container.encode(peer, forKey: .peer)
    }
}
