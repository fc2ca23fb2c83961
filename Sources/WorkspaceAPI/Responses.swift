import FoundationEssentials
import WorkspaceModel

/// `GET /v1/status`: what an operator reads first.
public struct StatusResponse: Codable, Sendable, Equatable {
    /// The daemon's release.
    public var daemonVersion: String
    /// The schema version it writes.
    public var schemaVersion: Int
    /// The state file.
    public var statePath: String
    /// The latest revision (every accepted change gets the next one).
    public var revision: UInt64
    /// The lineage of the state (``WorkspaceETag``); `nil` from a release without lineages.
    public var lineage: String?
    /// The latest revision known to be on disk.
    public var durableRevision: UInt64
    /// Whether accepted changes are not yet on disk.
    public var dirty: Bool
    /// When the last save finished, if any.
    public var lastSaveAt: Date?
    /// How long it took, in milliseconds.
    public var lastSaveMilliseconds: Double?
    /// The last save error, if the latest save failed.
    public var lastError: String?
    /// When it happened.
    public var lastErrorAt: Date?
    /// Failed saves in a row.
    public var consecutiveFailures: Int
    /// Saves performed since start.
    public var savesPerformed: Int
    /// Changes that were saved together with others.
    public var changesCoalesced: UInt64
    /// Seconds since the daemon started.
    public var uptimeSeconds: Double
    /// The installation: id, first start and first release (`nil` when it cannot be read, or from a release
    /// without a secret store).
    public var installation: InstallationStatus?
    /// The secret store: token authentication enabled or disabled and why, and the key's source (`nil` from a
    /// release without one).
    public var secrets: SecretsStatus?
    /// The last load of the state file: migration, backup, quarantine, salvage, repairs, time (`nil` from a
    /// release that does not report it).
    public var load: LoadStatus?
    /// When the saves began to fail, while they fail; `nil` while they succeed.
    public var savesFailingSince: Date?
    /// What the configuration in force warns about: unknown keys ignored (a key of a newer release, or a typo
    /// with the key it likely means); empty when none, `nil` from a release that does not report it.
    public var configurationWarnings: [String]?
    /// The change journal: segments, bytes, the revisions appended and synced, what the start replayed (`nil` from a
    /// release without one).
    public var journal: JournalStatusResponse?
    /// The history kept to read past states and go back to them; `nil` when none is kept (or from a release
    /// without one).
    public var history: HistoryStatusResponse?
    /// Replication off the host; `nil` when `replica.url` is empty (or from a release without it).
    public var replica: ReplicaStatusResponse?
    /// The scrub of backups, history and replica; `nil` from a release without it.
    public var scrub: ScrubStatusResponse?

    /// A status with every field.
    public init(
        daemonVersion: String, schemaVersion: Int, statePath: String, revision: UInt64, durableRevision: UInt64,
        dirty: Bool, lastSaveAt: Date?, lastSaveMilliseconds: Double?, lastError: String?, lastErrorAt: Date?,
        consecutiveFailures: Int, savesPerformed: Int, changesCoalesced: UInt64, uptimeSeconds: Double,
        installation: InstallationStatus? = nil, secrets: SecretsStatus? = nil, load: LoadStatus? = nil,
        savesFailingSince: Date? = nil, lineage: String? = nil, configurationWarnings: [String]? = nil,
        journal: JournalStatusResponse? = nil, history: HistoryStatusResponse? = nil,
        replica: ReplicaStatusResponse? = nil, scrub: ScrubStatusResponse? = nil
    ) {
        self.replica = replica
        self.scrub = scrub
        self.configurationWarnings = configurationWarnings
        self.journal = journal
        self.history = history
        self.daemonVersion = daemonVersion
        self.schemaVersion = schemaVersion
        self.statePath = statePath
        self.revision = revision
        self.lineage = lineage
        self.durableRevision = durableRevision
        self.dirty = dirty
        self.lastSaveAt = lastSaveAt
        self.lastSaveMilliseconds = lastSaveMilliseconds
        self.lastError = lastError
        self.lastErrorAt = lastErrorAt
        self.consecutiveFailures = consecutiveFailures
        self.savesPerformed = savesPerformed
        self.changesCoalesced = changesCoalesced
        self.uptimeSeconds = uptimeSeconds
        self.installation = installation
        self.secrets = secrets
        self.load = load
        self.savesFailingSince = savesFailingSince
    }

    private enum CodingKeys: String, CodingKey {
        case daemonVersion, schemaVersion, statePath, revision, lineage, durableRevision, dirty, lastSaveAt
        case lastSaveMilliseconds, lastError, lastErrorAt, consecutiveFailures, savesPerformed, changesCoalesced
        case uptimeSeconds, installation, secrets, load, savesFailingSince, configurationWarnings, journal, history
        case replica, scrub
    }

    /// Writes the keys as the synthesized encoding does (an absent value leaves its key out), except `history` and
    /// `replica`, written `null` when off: a reader tells "off" from a release that has none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(daemonVersion, forKey: .daemonVersion)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(statePath, forKey: .statePath)
        try container.encode(revision, forKey: .revision)
        try container.encodeIfPresent(lineage, forKey: .lineage)
        try container.encode(durableRevision, forKey: .durableRevision)
        try container.encode(dirty, forKey: .dirty)
        try container.encodeIfPresent(lastSaveAt, forKey: .lastSaveAt)
        try container.encodeIfPresent(lastSaveMilliseconds, forKey: .lastSaveMilliseconds)
        try container.encodeIfPresent(lastError, forKey: .lastError)
        try container.encodeIfPresent(lastErrorAt, forKey: .lastErrorAt)
        try container.encode(consecutiveFailures, forKey: .consecutiveFailures)
        try container.encode(savesPerformed, forKey: .savesPerformed)
        try container.encode(changesCoalesced, forKey: .changesCoalesced)
        try container.encode(uptimeSeconds, forKey: .uptimeSeconds)
        try container.encodeIfPresent(installation, forKey: .installation)
        try container.encodeIfPresent(secrets, forKey: .secrets)
        try container.encodeIfPresent(load, forKey: .load)
        try container.encodeIfPresent(savesFailingSince, forKey: .savesFailingSince)
        try container.encodeIfPresent(configurationWarnings, forKey: .configurationWarnings)
        try container.encodeIfPresent(journal, forKey: .journal)
        try container.encode(history, forKey: .history)
        try container.encode(replica, forKey: .replica)
        try container.encodeIfPresent(scrub, forKey: .scrub)
    }
}

/// `GET /v1/workspace`: the whole workspace, its revision and its entity tag (also the `ETag` header).
public struct WorkspaceResponse: Codable, Sendable, Equatable {
    /// The revision the workspace is at.
    public var revision: UInt64
    /// The entity tag of this state: its lineage and revision, for `If-Match` and `GET /v1/events?since=`.
    public var etag: WorkspaceETag
    /// The workspace, including fields this release does not know.
    public var workspace: Workspace

    /// A response with the given parts.
    public init(etag: WorkspaceETag, workspace: Workspace) {
        self.revision = etag.revision
        self.etag = etag
        self.workspace = workspace
    }
}

/// The answer to every change: the revision it got, the durable revision when durability was requested, and the
/// record it created or changed (if any).
///
/// Every key is written, `null` included, so the shape is always the same.
public struct ChangeResponse<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    /// The revision the change got.
    public var revision: UInt64
    /// The entity tag of the state the change made (also the `ETag` header): send it as `If-Match` to change
    /// that state again only if nobody else did in between.
    public var etag: WorkspaceETag
    /// With `?durable=true`: the durable revision (≥ `revision`) when the response was sent; otherwise `nil`.
    public var durableRevision: UInt64?
    /// The created or changed record.
    public var value: Value?

    /// A response with every field.
    public init(revision: UInt64, etag: WorkspaceETag, durableRevision: UInt64? = nil, value: Value? = nil) {
        self.revision = revision
        self.etag = etag
        self.durableRevision = durableRevision
        self.value = value
    }

    private enum CodingKeys: String, CodingKey { case revision, etag, durableRevision, value }

    /// Writes every key, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(revision, forKey: .revision)
        try container.encode(etag, forKey: .etag)
        try container.encode(durableRevision, forKey: .durableRevision)
        try container.encode(value, forKey: .value)
    }
}

/// A change with no record to return (deletions, focus, active project, flush).
public struct Empty: Codable, Sendable, Equatable {
    /// Nothing.
    public init() {}
}
