import FoundationEssentials

/// How a ``Replicator`` ships the history: who it is, how often, and how it backs off.
public struct ReplicatorConfiguration: Sendable {
    /// The installation writing the replica: the lease names it, and only the installation that holds the lease
    /// writes (a second host configured with the same prefix replicates nothing). Lineages, revisions and object
    /// names are the state's own; this names the host.
    public var installation: String
    /// The host name the lease shows to operators. Default: the system's.
    public var host: String
    /// How often a pass ships what is new, the open journal segment included. Default 1 s.
    public var syncInterval: Duration
    /// How often the lease is renewed while held (a conditional replace: it also finds out that another host took
    /// the lease over). Default 30 s.
    public var leaseRenewal: Duration
    /// The wait after failed passes. Default 1 s doubling to 60 s.
    public var backoff: RetryBackoff
    /// The SHA-256 that names objects. Default ``ReplicaDigest/builtIn``.
    public var digest: ReplicaDigest

    /// A configuration for `installation`.
    public init(
        installation: String, host: String = ProcessInfo.processInfo.hostName, syncInterval: Duration = .seconds(1),
        leaseRenewal: Duration = .seconds(30), backoff: RetryBackoff = RetryBackoff(),
        digest: ReplicaDigest = .builtIn
    ) {
        self.digest = digest
        self.installation = installation
        self.host = host
        self.syncInterval = max(.milliseconds(1), syncInterval)
        self.leaseRenewal = leaseRenewal
        self.backoff = backoff
    }
}
