import FoundationEssentials

/// The replica in `GET /v1/status`: where the history is shipped, who holds the lease, how far the
/// replica reaches and how far behind it is, and the last error.
///
/// Every key is written, `null` included, so the shape is always the same.
public struct ReplicaStatusResponse: Codable, Sendable, Equatable {
    /// `replica.url`.
    public var url: String
    /// Whether this installation holds the lease and writes.
    public var holdsLease: Bool
    /// The installation holding the lease when another one does (this daemon then writes nothing).
    public var heldBy: String?
    /// The host name that installation gave.
    public var heldByHost: String?
    /// The newest revision the replica holds; `nil` before the first pass that shipped a change.
    public var replicatedRevision: UInt64?
    /// When its change was applied.
    public var replicatedTime: Date?
    /// Revisions the daemon holds that the replica does not.
    public var lagRevisions: UInt64
    /// Seconds since the replica last caught up (0 while it is caught up); `nil` before it ever did.
    public var lagSeconds: Double?
    /// When a pass last succeeded.
    public var lastSuccessAt: Date?
    /// The last pass's error, until one succeeds.
    public var lastError: String?
    /// When it happened.
    public var lastErrorAt: Date?
    /// Failed passes in a row.
    public var consecutiveFailures: Int
    /// `aes-256-gcm` or `none`.
    public var encryption: String
    /// `replica.localMaximumBytes`: how large the local history may grow keeping what the replica lacks.
    public var localMaximumBytes: Int
    /// Bytes of local history kept because the replica lacks them (past the history's own retention or not).
    public var heldBytes: Int
    /// Bytes of history the replica lacked that were pruned at `localMaximumBytes`, since the daemon started.
    public var prunedUnreplicatedBytes: Int
    /// The newest revision among them: the replica cannot restore the states of the changes they held.
    public var prunedUnreplicatedRevision: UInt64?
    /// When the last of them was pruned.
    public var prunedUnreplicatedAt: Date?

    /// A status with every field.
    public init(
        url: String, holdsLease: Bool, heldBy: String?, heldByHost: String?, replicatedRevision: UInt64?,
        replicatedTime: Date?, lagRevisions: UInt64, lagSeconds: Double?, lastSuccessAt: Date?, lastError: String?,
        lastErrorAt: Date?, consecutiveFailures: Int, encryption: String, localMaximumBytes: Int = 0,
        heldBytes: Int = 0, prunedUnreplicatedBytes: Int = 0, prunedUnreplicatedRevision: UInt64? = nil,
        prunedUnreplicatedAt: Date? = nil
    ) {
        self.localMaximumBytes = localMaximumBytes
        self.heldBytes = heldBytes
        self.prunedUnreplicatedBytes = prunedUnreplicatedBytes
        self.prunedUnreplicatedRevision = prunedUnreplicatedRevision
        self.prunedUnreplicatedAt = prunedUnreplicatedAt
        self.url = url
        self.holdsLease = holdsLease
        self.heldBy = heldBy
        self.heldByHost = heldByHost
        self.replicatedRevision = replicatedRevision
        self.replicatedTime = replicatedTime
        self.lagRevisions = lagRevisions
        self.lagSeconds = lagSeconds
        self.lastSuccessAt = lastSuccessAt
        self.lastError = lastError
        self.lastErrorAt = lastErrorAt
        self.consecutiveFailures = consecutiveFailures
        self.encryption = encryption
    }

    private enum CodingKeys: String, CodingKey {
        case url, holdsLease, heldBy, heldByHost, replicatedRevision, replicatedTime, lagRevisions, lagSeconds
        case lastSuccessAt, lastError, lastErrorAt, consecutiveFailures, encryption
        case localMaximumBytes, heldBytes, prunedUnreplicatedBytes, prunedUnreplicatedRevision, prunedUnreplicatedAt
    }

    /// Decodes a status; the keys of the local hold, which a daemon before them does not write, default to none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(String.self, forKey: .url)
        holdsLease = try container.decode(Bool.self, forKey: .holdsLease)
        heldBy = try container.decodeIfPresent(String.self, forKey: .heldBy)
        heldByHost = try container.decodeIfPresent(String.self, forKey: .heldByHost)
        replicatedRevision = try container.decodeIfPresent(UInt64.self, forKey: .replicatedRevision)
        replicatedTime = try container.decodeIfPresent(Date.self, forKey: .replicatedTime)
        lagRevisions = try container.decode(UInt64.self, forKey: .lagRevisions)
        lagSeconds = try container.decodeIfPresent(Double.self, forKey: .lagSeconds)
        lastSuccessAt = try container.decodeIfPresent(Date.self, forKey: .lastSuccessAt)
        lastError = try container.decodeIfPresent(String.self, forKey: .lastError)
        lastErrorAt = try container.decodeIfPresent(Date.self, forKey: .lastErrorAt)
        consecutiveFailures = try container.decode(Int.self, forKey: .consecutiveFailures)
        encryption = try container.decode(String.self, forKey: .encryption)
        localMaximumBytes = try container.decodeIfPresent(Int.self, forKey: .localMaximumBytes) ?? 0
        heldBytes = try container.decodeIfPresent(Int.self, forKey: .heldBytes) ?? 0
        prunedUnreplicatedBytes = try container.decodeIfPresent(Int.self, forKey: .prunedUnreplicatedBytes) ?? 0
        prunedUnreplicatedRevision = try container.decodeIfPresent(UInt64.self, forKey: .prunedUnreplicatedRevision)
        prunedUnreplicatedAt = try container.decodeIfPresent(Date.self, forKey: .prunedUnreplicatedAt)
    }

    /// Every key, `null` for an absent value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encode(holdsLease, forKey: .holdsLease)
        try container.encode(heldBy, forKey: .heldBy)
        try container.encode(heldByHost, forKey: .heldByHost)
        try container.encode(replicatedRevision, forKey: .replicatedRevision)
        try container.encode(replicatedTime, forKey: .replicatedTime)
        try container.encode(lagRevisions, forKey: .lagRevisions)
        try container.encode(lagSeconds, forKey: .lagSeconds)
        try container.encode(lastSuccessAt, forKey: .lastSuccessAt)
        try container.encode(lastError, forKey: .lastError)
        try container.encode(lastErrorAt, forKey: .lastErrorAt)
        try container.encode(consecutiveFailures, forKey: .consecutiveFailures)
        try container.encode(encryption, forKey: .encryption)
        try container.encode(localMaximumBytes, forKey: .localMaximumBytes)
        try container.encode(heldBytes, forKey: .heldBytes)
        try container.encode(prunedUnreplicatedBytes, forKey: .prunedUnreplicatedBytes)
        try container.encode(prunedUnreplicatedRevision, forKey: .prunedUnreplicatedRevision)
        try container.encode(prunedUnreplicatedAt, forKey: .prunedUnreplicatedAt)
    }
}
