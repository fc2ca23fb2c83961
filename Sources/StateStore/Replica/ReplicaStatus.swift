import FoundationEssentials

/// What a ``Replicator`` has done: how far the replica reaches, who holds the lease, the last error.
public struct ReplicaStatus: Sendable, Equatable {
    /// Whether this installation holds the lease (and so writes).
    public var holdsLease = false
    /// The installation and host holding the lease when another one does: this replicator then writes nothing.
    public var heldBy: ReplicaLease?
    /// The newest revision the replica holds, and its lineage; `nil` before the first pass that shipped a change.
    public var replicatedRevision: UInt64?
    /// The lineage of ``replicatedRevision``.
    public var replicatedLineage: String?
    /// When the change of ``replicatedRevision`` was applied (its journal marker), when known.
    public var replicatedRevisionTime: Date?
    /// The newest revision found in the local history and journal at the last pass.
    public var localRevision: UInt64?
    /// When a pass last completed without an error.
    public var lastSuccess: Date?
    /// The error of the last pass, until a pass succeeds.
    public var lastError: String?
    /// When ``lastError`` happened.
    public var lastErrorDate: Date?
    /// Failed passes in a row.
    public var consecutiveFailures = 0
    /// Passes completed, failed or not.
    public var passes = 0
    /// Objects written since the replicator started.
    public var objectsWritten = 0
    /// Bytes of those objects.
    public var bytesWritten = 0

    /// The status before any pass.
    public init() {}

    /// Revisions the local journal holds that the replica does not, as of the last pass.
    public var lagRevisions: UInt64? {
        guard let localRevision else { return nil }
        return localRevision - min(localRevision, replicatedRevision ?? 0)
    }
}

/// What a ``Replicator`` tells its observer: failures and recoveries, and the lease changing hands.
public enum ReplicaEvent: Sendable, Equatable {
    /// A pass failed; the next waits `retryIn`.
    case failed(error: String, consecutiveFailures: Int, retryIn: Duration)
    /// A pass succeeded after `failures` failed ones.
    case recovered(failures: Int)
    /// This installation took the lease (`takenOver`: from another installation, by ``Replicator/takeOver()``).
    case leaseAcquired(takenOver: Bool)
    /// Another installation holds the lease: this one writes nothing until it is taken over.
    case leaseHeldElsewhere(ReplicaLease)
}
