import FoundationEssentials

/// Why the history could not give a past state or its changes.
public enum HistoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The state keeps no history (``HistoryConfiguration/off``, or no change journal).
    case disabled
    /// `revision` is older than the oldest the history keeps.
    case pruned(revision: UInt64, oldestRevision: UInt64)
    /// `revision` is after the state's current one.
    case notReached(revision: UInt64, currentRevision: UInt64)
    /// A file the read needs is damaged or missing: `reason` says how.
    case damaged(path: String, reason: String)

    /// A sentence naming the revisions or the file.
    public var description: String {
        switch self {
        case .disabled:
            "no history is kept (history.keepSeconds or history.maximumBytes is 0, or the state has no journal)"
        case .pruned(let revision, let oldest):
            "revision \(revision) is older than the history kept, which starts at revision \(oldest)"
        case .notReached(let revision, let current):
            "revision \(revision) is not reached yet: the state is at revision \(current)"
        case .damaged(let path, let reason):
            "the history file \(path) cannot be read: \(reason)"
        }
    }
}
