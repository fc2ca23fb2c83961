import Foundation

/// The replica in `GET /v1/status` (issue 43): where the history is shipped, who holds the lease, how far the
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

    /// A status with every field.
    public init(
        url: String, holdsLease: Bool, heldBy: String?, heldByHost: String?, replicatedRevision: UInt64?,
        replicatedTime: Date?, lagRevisions: UInt64, lagSeconds: Double?, lastSuccessAt: Date?, lastError: String?,
        lastErrorAt: Date?, consecutiveFailures: Int, encryption: String
    ) {
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
    }
}
