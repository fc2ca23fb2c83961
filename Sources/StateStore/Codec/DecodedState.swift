/// A state decoded from bytes and brought to the current version, with what it took.
public struct DecodedState<Model: Sendable>: Sendable {
    /// The current-version model, migrated and repaired.
    public var model: Model
    /// The version stored in the bytes (the first version when they carry none).
    public var storedVersion: Int
    /// The minimum reader version stored in the bytes, if any.
    public var storedMinReaderVersion: Int?
    /// The revision stored in the bytes (``StateSchema/revisionKey``), if any.
    public var storedRevision: UInt64? = nil
    /// The lineage stored in the bytes (``StateSchema/lineageKey``), if any.
    public var storedLineage: Lineage? = nil
    /// The steps that ran, in order, as `from...to`.
    public var stepsApplied: [ClosedRange<Int>]
    /// Fields filled with a default, by path, with how many records got it: by the steps, and while decoding
    /// when a field with a default was missing (`KeyedDecodingContainer.decode(_:forKey:defaultingTo:in:)`, from StateCoding).
    public var fieldsDefaulted: [String: Int]
    /// Fields the steps took back from the unknown fields a rollback had set them aside in, by path, with how
    /// many records had one (``MigrationContext/takeBack(_:_:from:at:)``).
    public var fieldsTakenBack: [String: Int] = [:]
    /// Keys the model does not declare that were kept, by path, with how many records had them.
    public var unknownKeysKept: [String: Int]
    /// Keys of the bytes that the stored version's types neither declare nor keep, by path, with how many records
    /// had them: a `@StateModel(unknownFields: .drop)` record's, or a plain `Codable` type's (found by writing the
    /// decoded value back and comparing its keys with the bytes'). Each is in ``warnings`` too. Empty when nothing
    /// was dropped.
    public var unknownKeysDropped: [String: Int] = [:]
    /// Warnings raised by the steps.
    public var warnings: [String]
    /// Repairs made after migration.
    public var repairs: [String]
    /// Whether the bytes came from a newer release whose `minReaderVersion` allows this one to read them.
    public var isNewerCompatible: Bool
    /// Time spent parsing and decoding.
    public var decodeDuration: Duration
    /// Time spent in migration steps.
    public var migrateDuration: Duration
    /// Time spent repairing.
    public var repairDuration: Duration
    /// What a salvage changed (``StateCodec/decode(_:salvaging:)``); `nil` when the strict decode succeeded.
    public var salvage: SalvageReport? = nil
    /// Why the bytes were read through `Codable` rather than straight into the model (`StateDirectDecodable`):
    /// the stored version's type has no direct reader, the direct read refused the bytes (the `Codable` path then
    /// named the defect, or read what the direct read does not), or a salvage. `nil` when they were read directly.
    public var directReadFallback: String? = nil
    /// What the content checksum the bytes record said of them (``ContentChecksum``): set by a ``StateFile`` load,
    /// `nil` from the codec alone.
    package var contentChecksum: ContentChecksumOutcome? = nil
}

/// Why bytes could not be turned into the current model.
public enum StateDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes come from a newer release that does not allow this one to read them.
    case newerVersion(stored: Int, minReaderVersion: Int?, current: Int)
    /// The bytes are not a state file this release can read: not JSON, truncated, wrong types, a failed step or
    /// failed validation. The reason says which and where.
    case corrupt(reason: String)

    /// A sentence naming the versions or the defect.
    public var description: String {
        switch self {
        case .newerVersion(let stored, let minReader, let current):
            let needs =
                minReader.map { "needs a reader of version \($0) or later" } ?? "does not say which readers it allows"
            return "the file is version \(stored) and \(needs); this release reads up to version \(current)"
        case .corrupt(let reason):
            return reason
        }
    }
}
