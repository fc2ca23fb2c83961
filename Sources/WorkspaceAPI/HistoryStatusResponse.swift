import FoundationEssentials

/// The history in `GET /v1/status`: what it keeps, from which revision, on how much disk, and the files that failed
/// their check.
///
/// Every key is written, `null` included, so the shape is always the same.
public struct HistoryStatusResponse: Codable, Sendable, Equatable {
    /// A history file that failed its check.
    public struct Damage: Codable, Sendable, Equatable {
        /// The file.
        public var path: String
        /// What is wrong with it.
        public var reason: String

        /// A damage with every field given.
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// The directory the history lives in.
    public var directory: String
    /// The oldest revision whose state can be read; `nil` before the history holds any.
    public var oldestRevision: UInt64?
    /// When the change after it was made (or its snapshot taken); `nil` when unknown.
    public var oldestTime: Date?
    /// Every file of the history.
    public var files: Int
    /// Their bytes.
    public var bytes: Int
    /// Snapshots kept.
    public var snapshots: Int
    /// Journal segments kept.
    public var segments: Int
    /// The files that failed their check.
    public var damaged: [Damage]
    /// How long a change is kept, in seconds (`history.keepSeconds`).
    public var keepSeconds: Int
    /// The bytes the history may take (`history.maximumBytes`).
    public var maximumBytes: Int

    /// A status with every field given.
    public init(
        directory: String, oldestRevision: UInt64?, oldestTime: Date?, files: Int, bytes: Int, snapshots: Int,
        segments: Int, damaged: [Damage], keepSeconds: Int, maximumBytes: Int
    ) {
        self.directory = directory
        self.oldestRevision = oldestRevision
        self.oldestTime = oldestTime
        self.files = files
        self.bytes = bytes
        self.snapshots = snapshots
        self.segments = segments
        self.damaged = damaged
        self.keepSeconds = keepSeconds
        self.maximumBytes = maximumBytes
    }

    private enum CodingKeys: String, CodingKey {
        case directory, oldestRevision, oldestTime, files, bytes, snapshots, segments, damaged, keepSeconds
        case maximumBytes
    }

    /// Writes every key, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(directory, forKey: .directory)
        try container.encode(oldestRevision, forKey: .oldestRevision)
        try container.encode(oldestTime, forKey: .oldestTime)
        try container.encode(files, forKey: .files)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(snapshots, forKey: .snapshots)
        try container.encode(segments, forKey: .segments)
        try container.encode(damaged, forKey: .damaged)
        try container.encode(keepSeconds, forKey: .keepSeconds)
        try container.encode(maximumBytes, forKey: .maximumBytes)
    }
}
