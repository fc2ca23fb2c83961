import FoundationEssentials

/// The lease object of a replica, `lease.json`: which installation writes to the prefix. A host takes it with a
/// conditional create, renews it with a conditional replace of the version it wrote, and writes nothing while
/// another installation holds it; ``Replicator/takeOver()`` is the one way to move it.
public struct ReplicaLease: Codable, Sendable, Equatable {
    /// The format version.
    public var lease = 1
    /// The installation that holds it (``ReplicatorConfiguration/installation``).
    public var installation: String
    /// The host name it was taken or renewed on, for operators.
    public var host: String
    /// When it was taken.
    public var acquired: Date
    /// When it was last renewed.
    public var renewed: Date

    /// A lease held by `installation` on `host`, taken and renewed at `date`.
    public init(installation: String, host: String, date: Date) {
        self.installation = installation
        self.host = host
        self.acquired = date
        self.renewed = date
    }

    /// The lease `bytes` hold; `nil` when they are not one this release reads.
    public init?(bytes: Data) {
        guard let lease = try? Self.decoder.decode(ReplicaLease.self, from: bytes), lease.lease == 1 else { return nil }
        self = lease
    }

    /// Pretty, sorted keys, ISO 8601 dates: the history manifest's JSON.
    static let encoder = HistoryArchive.encoder
    static let decoder = HistoryArchive.decoder
}

/// The manifest object of a replica, `manifest.json`: what a restore starts from. Objects are found by listing;
/// the manifest names the lineage whose chain is the state's, since a listing alone cannot tell the newest
/// lineage from an abandoned one.
public struct ReplicaManifest: Codable, Sendable, Equatable {
    /// The format version.
    public var replica = 1
    /// The installation that wrote it.
    public var installation: String
    /// The lineage of the newest change replicated.
    public var lineage: String
    /// The newest revision replicated.
    public var revision: UInt64
    /// When the change of ``revision`` was applied (its journal marker), when known.
    public var revisionTime: Date?
    /// When the manifest was written.
    public var written: Date

    /// A manifest of `revision` in `lineage`, written by `installation` at `written`.
    public init(installation: String, lineage: String, revision: UInt64, revisionTime: Date?, written: Date) {
        self.installation = installation
        self.lineage = lineage
        self.revision = revision
        self.revisionTime = revisionTime
        self.written = written
    }
}
