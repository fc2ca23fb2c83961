import FoundationEssentials
import Synchronization

/// Keeps the files of a history that a reader has not copied yet (a ``Replicator`` shipping them off the host) from
/// its pruning, up to a size.
///
/// A history prunes by its ``HistoryConfiguration``: what is older than its `keepSeconds` or past its
/// `maximumByteCount` goes, oldest first. With a hold, a file goes only once the reader released it
/// (``release(fileNamed:)``), so a replica that fell behind (the store down, the lease elsewhere) still gets every
/// change; until the history would exceed ``maximumByteCount``. Past that, it prunes the oldest files anyway, counts
/// them in ``status`` and tells the observer (``HistoryHoldEvent``): the replica will then miss them.
///
/// ```swift
/// let hold = HistoryHold(maximumByteCount: 256 << 20) { event in logger.warning("\(event)") }
/// let state = try PersistentState(
///     file: file, loaded: loaded, journaling: Change.self, history: HistoryConfiguration(), historyHold: hold)
/// let replicator = Replicator(stateFilePath: file.path, target: target, configuration: configuration, hold: hold)
/// ```
///
/// Nothing is released before the reader says so: after a start every file is held until the reader's first pass.
/// One hold serves one history.
public final class HistoryHold: Sendable {
    /// The bytes the history may take while it holds files the reader has not released. `0` holds nothing.
    public let maximumByteCount: Int
    let observer: (@Sendable (HistoryHoldEvent) -> Void)?
    let state = Mutex(HoldState())

    struct HoldState {
        var released: Set<String> = []
        var status = HistoryHoldStatus()
    }

    /// A hold of at most `maximumByteCount` bytes of history; `observer` is told when the history pruned files it
    /// held (on the thread of the save that pruned, after the files are gone).
    public init(maximumByteCount: Int, observer: (@Sendable (HistoryHoldEvent) -> Void)? = nil) {
        self.maximumByteCount = max(0, maximumByteCount)
        self.observer = observer
    }

    /// Lets the history prune the file `name` (its name in the history directory, as the reader listed it)
    /// when its retention says so: the reader has what it needs of it.
    public func release(fileNamed name: String) {
        state.withLock { _ = $0.released.insert(name) }
    }

    /// Whether the reader released the file `name`.
    public func isReleased(fileNamed name: String) -> Bool {
        state.withLock { $0.released.contains(name) }
    }

    /// What the hold kept and what the history pruned past it.
    public var status: HistoryHoldStatus {
        state.withLock { $0.status }
    }

    /// The names among `names` not released yet.
    func held(_ names: [String]) -> Set<String> {
        state.withLock { state in Set(names.filter { !state.released.contains($0) }) }
    }

    /// Records a pruning: `dropped` are held files it removed anyway; `removed` every name it removed (forgotten,
    /// so that the set of released names stays as large as the history).
    func recordPruning(dropped: [HistoryHoldEvent.DroppedFile], removed: Set<String>, historyBytes: Int, date: Date) {
        let event = state.withLock { state -> HistoryHoldEvent? in
            state.released.subtract(removed)
            guard !dropped.isEmpty else { return nil }
            let bytes = dropped.reduce(0) { $0 + $1.byteCount }
            state.status.droppedFileCount += dropped.count
            state.status.droppedByteCount += bytes
            state.status.lastDropped = date
            let revisions = dropped.map(\.lastRevision).max()
            if let revisions {
                state.status.newestDroppedRevision = max(state.status.newestDroppedRevision ?? 0, revisions)
            }
            return .pruned(
                files: dropped, byteCount: bytes, historyByteCount: historyBytes, maximumByteCount: maximumByteCount)
        }
        if let event { observer?(event) }
    }
}
