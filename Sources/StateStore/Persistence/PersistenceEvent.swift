/// Something a daemon may want to log, delivered to the observer of a ``PersistentState``.
///
/// Events are delivered one at a time, in the order of the saves, on the thread that finished the save, after
/// the status has been updated. An observer must return quickly and must not call
/// ``PersistentState/flushSynchronously()`` (the save it is told about is still finishing).
public enum PersistenceEvent: Sendable, Equatable {
    /// A save made `revision` durable.
    case saved(revision: UInt64, duration: Duration, byteCount: Int)
    /// A save failed; `retryIn` is the backoff delay: the next background attempt comes no sooner than that
    /// after this failure.
    ///
    /// That holds for a failed ``PersistentState/flushSynchronously()`` too: its caller gets the error, and the
    /// background retry is armed once the flush returns. `retryIn` is nil only when the state is closed
    /// (``PersistentState/close()``), because no background save runs after that.
    case saveFailed(error: PersistenceError, consecutiveFailures: Int, retryIn: Duration?)
    /// A save succeeded after `failures` failed ones.
    case saveRecovered(revision: UInt64, failures: Int)
    /// The change journal could not record a change or make it durable (`error` says which revision and why):
    /// changes are answered with ``PersistenceError/journalFailed(path:revision:underlying:)`` and a snapshot is
    /// taken at once. Delivered on the thread that found the failure.
    case journalFailed(error: PersistenceError)
    /// The journal works again: the snapshot of `revision`, which its new segment continues, is durable.
    case journalResumed(revision: UInt64)
}
