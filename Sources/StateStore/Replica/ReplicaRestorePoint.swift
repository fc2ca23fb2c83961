import FoundationEssentials

/// Which state a ``ReplicaRestore`` brings back.
public enum ReplicaRestorePoint: Sendable, Equatable, CustomStringConvertible {
    /// The newest state the replica holds.
    case latest
    /// The state at this revision of the replica's newest lineage (or of a lineage it continues).
    case revision(UInt64)
    /// The state as it was at this time: every change applied at or before it, none after.
    case time(Date)

    /// `latest`, `revision N` or `time <ISO 8601>`.
    public var description: String {
        switch self {
        case .latest: "latest"
        case .revision(let revision): "revision \(revision)"
        case .time(let date): "time \(date.formatted(.iso8601))"
        }
    }
}

/// What a ``ReplicaRestore`` put in place.
public struct ReplicaRestoreReport: Sendable, Equatable, CustomStringConvertible {
    /// The lineage of the restored state's newest change (or of its snapshot, without one).
    public var lineage: String
    /// The revision the restored state is at once its journal is replayed.
    public var revision: UInt64
    /// When the change of ``revision`` was applied (or the snapshot taken), when known.
    public var time: Date?
    /// The revision of the snapshot written as the state file.
    public var snapshotRevision: UInt64
    /// The journal segments written beside it, which the next load replays.
    public var segmentsWritten: [String]
    /// Objects read and checked.
    public var objectsRead: Int
    /// Their bytes.
    public var bytesRead: Int
    /// Why the restore stopped before the point asked for, when it did: a segment whose last piece never
    /// reached the replica, or ends in a torn record.
    public var stoppedEarly: String?

    /// One line for operators.
    public var description: String {
        var text = "restored lineage \(lineage) at revision \(revision)"
        if let time { text += " (\(time.formatted(.iso8601)))" }
        text += " from the snapshot of revision \(snapshotRevision) and \(segmentsWritten.count) journal segment(s)"
        text += "; \(objectsRead) object(s), \(bytesRead) bytes checked"
        if let stoppedEarly { text += "; stopped early: \(stoppedEarly)" }
        return text
    }
}

/// Why a restore wrote nothing, or stopped.
public struct ReplicaRestoreError: Error, Sendable, CustomStringConvertible {
    /// The object concerned, when one is.
    public var object: String?
    /// What went wrong.
    public var reason: String

    /// The error `reason`, about `object`.
    public init(object: String? = nil, reason: String) {
        self.object = object
        self.reason = reason
    }

    /// `restore: <object>: <reason>`.
    public var description: String { "restore: " + (object.map { "\($0): " } ?? "") + reason }

    /// The error of a replica that holds no manifest: nothing was replicated there yet.
    static let nothingReplicated = ReplicaRestoreError(
        object: ReplicaLayout.manifest.rawValue, reason: "missing: nothing was replicated to this place")

    /// Whether the replica holds nothing yet (no manifest), rather than something that cannot be read: a new host
    /// may then start empty, and a check has nothing to find damaged.
    public var replicaIsEmpty: Bool {
        object == Self.nothingReplicated.object && reason == Self.nothingReplicated.reason
    }
}
