import FoundationEssentials

/// The scrub in `GET /v1/status` and the answer of `POST /v1/scrub`: when the daemon last read every file a restore
/// would start from (pre-migration backups, the history, the replica's newest state, the state file's checksum),
/// and what it found damaged.
///
/// Every key is written, `null` included, so the shape is always the same.
public struct ScrubStatusResponse: Codable, Sendable, Equatable {
    /// A file that failed the scrub: its path (or the replica's URL) and what is wrong with it, as the history's
    /// damaged files are reported.
    public typealias Damage = HistoryStatusResponse.Damage

    /// How often a scrub runs, in hours (`scrub.intervalHours`); 0 when only `POST /v1/scrub` runs one.
    public var intervalHours: Int
    /// Whether a scrub is running now.
    public var running: Bool
    /// When the last scrub finished; `nil` before the first.
    public var lastRunAt: Date?
    /// When the last scrub that found nothing damaged finished; `nil` before the first.
    public var lastSuccessAt: Date?
    /// How long the last scrub took, in seconds.
    public var lastDurationSeconds: Double?
    /// The files the last scrub read.
    public var filesChecked: Int
    /// The files the last scrub found damaged (none when it passed).
    public var damaged: [Damage]
    /// When the next scheduled scrub starts; `nil` when none is scheduled.
    public var nextRunAt: Date?

    /// A status with every field given.
    public init(
        intervalHours: Int, running: Bool, lastRunAt: Date?, lastSuccessAt: Date?, lastDurationSeconds: Double?,
        filesChecked: Int, damaged: [Damage], nextRunAt: Date?
    ) {
        self.intervalHours = intervalHours
        self.running = running
        self.lastRunAt = lastRunAt
        self.lastSuccessAt = lastSuccessAt
        self.lastDurationSeconds = lastDurationSeconds
        self.filesChecked = filesChecked
        self.damaged = damaged
        self.nextRunAt = nextRunAt
    }

    private enum CodingKeys: String, CodingKey {
        case intervalHours, running, lastRunAt, lastSuccessAt, lastDurationSeconds, filesChecked, damaged, nextRunAt
    }

    /// Writes every key, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(intervalHours, forKey: .intervalHours)
        try container.encode(running, forKey: .running)
        try container.encode(lastRunAt, forKey: .lastRunAt)
        try container.encode(lastSuccessAt, forKey: .lastSuccessAt)
        try container.encode(lastDurationSeconds, forKey: .lastDurationSeconds)
        try container.encode(filesChecked, forKey: .filesChecked)
        try container.encode(damaged, forKey: .damaged)
        try container.encode(nextRunAt, forKey: .nextRunAt)
    }
}
