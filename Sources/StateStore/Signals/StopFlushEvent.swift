/// What ``PersistentState/flushOnStop(signals:exitsProcess:observer:)`` does when a stop signal comes, in order:
/// ``stopping(signal:)``, then ``flushed(signal:durableRevision:)`` or ``flushFailed(signal:error:)``.
public enum StopFlushEvent: Sendable {
    /// A stop signal came: the state refuses further changes and writes what is not durable yet. A service under
    /// systemd says `STOPPING=1` here.
    case stopping(signal: Int32)
    /// Every accepted change is durable, up to `durableRevision`; the process exits with ``exitStatus`` 0 next.
    case flushed(signal: Int32, durableRevision: UInt64)
    /// The final save failed: the changes after the last durable revision are not on disk (the file holds an
    /// earlier complete state). The process exits with ``exitStatus`` 74 next (`EX_IOERR`), so that systemd records
    /// a failure rather than a clean stop.
    case flushFailed(signal: Int32, error: PersistenceError)

    /// The signal that stopped the process.
    public var signal: Int32 {
        switch self {
        case .stopping(let signal), .flushed(let signal, _), .flushFailed(let signal, _): signal
        }
    }

    /// The status the process exits with after this event: 0 after a flush, 74 (`EX_IOERR`) after a failed one,
    /// `nil` before the flush.
    public var exitStatus: Int32? {
        switch self {
        case .stopping: nil
        case .flushed: 0
        case .flushFailed: 74
        }
    }
}
