import Foundation

extension PersistentState {
    /// The model as it was at `revision`: the newest history snapshot at or before it, with the journal's changes
    /// replayed up to it. Reads files: call it off an event loop.
    ///
    /// - Throws: ``HistoryError``.
    public func model(atRevision revision: UInt64) throws(HistoryError) -> Model {
        throw .disabled
    }

    /// The changes after `revision` (with `nil`, the newest `limit`), oldest first: at most `limit`, and only those
    /// `matching` keeps.
    ///
    /// - Throws: ``HistoryError``.
    public func changes<Change: StateChange>(
        _ type: Change.Type, after revision: UInt64?, limit: Int,
        matching: ((HistoryEntry<Change>) -> Bool)? = nil
    ) throws(HistoryError) -> HistoryPage<Change> where Change.Model == Model {
        throw .disabled
    }

    /// The history kept now; `nil` when history is off or the state has no journal.
    public var historyStatus: HistoryStatus? { nil }
}
