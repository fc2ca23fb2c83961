/// Everything a store needs to know about a model: its current version, how files of every earlier version
/// become the current model, what an empty state is, and how to repair loaded data.
///
/// Building a schema validates the migration chain, so a gap, a duplicate step or a step whose types do not
/// line up fails at start-up (or in a unit test), never while loading a user's file.
public struct StateSchema<Model: Codable & Sendable>: Sendable {
    /// The version this release writes.
    public let currentVersion: Int
    /// The version of files that carry no version key (the first release wrote none).
    public let firstVersion: Int
    /// The oldest release version that can read what this release writes; stored in every saved file.
    public let minReaderVersion: Int
    /// The root key holding the version.
    public let versionKey: String
    /// The root key holding the minimum reader version.
    public let minReaderVersionKey: String
    /// The root key holding the revision of the saved state (``PersistentState``'s counter).
    public let revisionKey: String
    /// The root key holding the ``Lineage`` of the saved state.
    public let lineageKey: String
    /// The root key holding the checksum of the file's content, the last member of every file a ``StateFile``
    /// writes (``ContentChecksum``).
    public let contentChecksumKey: String
    /// How dates are read and written.
    public let dateCoding: DateCoding
    let stepsByVersion: [Int: MigrationStep]
    let makeInitial: @Sendable () -> Model
    let repairModel: @Sendable (inout Model, inout RepairLog) throws -> Void
    /// How `Model` reads and writes itself directly, when the schema was made where its conformances are known;
    /// nil: looked up at run time, where the first lookup of a conformance scans every conformance record of the
    /// process (about 0.3 million instructions each, on a start's path).
    private(set) var directModelCoding: DirectModelCoding<Model>?

    /// Builds and validates a schema.
    ///
    /// - Parameters:
    ///   - currentVersion: The version this release writes.
    ///   - firstVersion: The version of files without a version key.
    ///   - minReaderVersion: Stored in saved files; defaults to `currentVersion` (older releases refuse them).
    ///     Set it lower only when this version merely adds fields an older release may safely carry unchanged.
    ///   - versionKey: The root key holding the version.
    ///   - minReaderVersionKey: The root key holding the minimum reader version.
    ///   - revisionKey: The root key holding the revision; pick another name when the model has a root field
    ///     called `revision`.
    ///   - lineageKey: The root key holding the lineage.
    ///   - contentChecksumKey: The root key holding the content checksum (``ContentChecksum``); pick another name
    ///     when the model has a root field called `contentChecksum`.
    ///   - dateCoding: How dates are read and written.
    ///   - migrations: One step from every version in `firstVersion..<currentVersion`.
    ///   - initial: The state to start from when there is no file, or the file was quarantined.
    ///   - repair: Fixes loaded data that would break clients, logging each fix; throwing marks the file corrupt.
    /// - Throws: ``MigrationPlanError`` when the chain has a gap, a duplicate, or mismatched types.
    public init(
        currentVersion: Int,
        firstVersion: Int = 1,
        minReaderVersion: Int? = nil,
        versionKey: String = "version",
        minReaderVersionKey: String = "minReaderVersion",
        revisionKey: String = "revision",
        lineageKey: String = "lineage",
        contentChecksumKey: String = ContentChecksum.defaultKey,
        dateCoding: DateCoding = .iso8601,
        migrations: [MigrationStep] = [],
        initial: @escaping @Sendable () -> Model,
        repair: @escaping @Sendable (inout Model, inout RepairLog) throws -> Void = { _, _ in }
    ) throws(MigrationPlanError) {
        try self.init(
            checking: (),
            currentVersion: currentVersion,
            firstVersion: firstVersion,
            minReaderVersion: minReaderVersion,
            versionKey: versionKey,
            minReaderVersionKey: minReaderVersionKey,
            revisionKey: revisionKey,
            lineageKey: lineageKey,
            contentChecksumKey: contentChecksumKey,
            dateCoding: dateCoding,
            migrations: migrations,
            initial: initial,
            repair: repair)
    }

    /// The schema's checks and fields, for both public initializers.
    private init(
        checking: Void,
        currentVersion: Int,
        firstVersion: Int,
        minReaderVersion: Int?,
        versionKey: String,
        minReaderVersionKey: String,
        revisionKey: String,
        lineageKey: String,
        contentChecksumKey: String,
        dateCoding: DateCoding,
        migrations: [MigrationStep],
        initial: @escaping @Sendable () -> Model,
        repair: @escaping @Sendable (inout Model, inout RepairLog) throws -> Void
    ) throws(MigrationPlanError) {
        let minReader = minReaderVersion ?? currentVersion
        guard firstVersion <= currentVersion, minReader <= currentVersion, minReader >= firstVersion else {
            throw .invalidVersions(first: firstVersion, current: currentVersion, minReader: minReader)
        }
        var steps: [Int: MigrationStep] = [:]
        for step in migrations {
            guard (firstVersion..<currentVersion).contains(step.fromVersion) else {
                throw .stepOutOfRange(fromVersion: step.fromVersion, first: firstVersion, current: currentVersion)
            }
            guard steps[step.fromVersion] == nil else { throw .duplicateStep(fromVersion: step.fromVersion) }
            steps[step.fromVersion] = step
        }
        for version in firstVersion..<currentVersion where steps[version] == nil {
            throw .missingStep(fromVersion: version)
        }
        for version in firstVersion..<currentVersion {
            let step = steps[version]!
            let expected: Any.Type = steps[version + 1]?.inputType ?? Model.self
            guard ObjectIdentifier(step.outputType) == ObjectIdentifier(expected) else {
                throw .typeMismatch(fromVersion: version, produces: "\(step.outputType)", nextExpects: "\(expected)")
            }
        }
        self.currentVersion = currentVersion
        self.firstVersion = firstVersion
        self.minReaderVersion = minReader
        self.versionKey = versionKey
        self.minReaderVersionKey = minReaderVersionKey
        self.revisionKey = revisionKey
        self.lineageKey = lineageKey
        self.contentChecksumKey = contentChecksumKey
        self.dateCoding = dateCoding
        self.stepsByVersion = steps
        self.makeInitial = initial
        self.repairModel = repair
    }

    /// The state to start from when there is no usable file.
    public func initialModel() -> Model { makeInitial() }

    /// The lowest version a state of the current version can be written as (``StateCodec/encode(_:downTo:)``):
    /// every step from it up declares its reverse. The current version when the last step has none.
    public var lowestReachableVersion: Int {
        var version = currentVersion
        while version > firstVersion, stepsByVersion[version - 1]?.hasReverse == true { version -= 1 }
        return version
    }

    /// The versions that will run, in order, to bring a file stored at `version` to the current one.
    public func steps(from version: Int) -> [ClosedRange<Int>] {
        guard version < currentVersion else { return [] }
        return (max(version, firstVersion)..<currentVersion).map { $0...($0 + 1) }
    }
}

/// How dates in a state file are written. Dates are always read back the same way.
public enum DateCoding: Sendable {
    /// ISO 8601 date-times. Read with or without fractional seconds, with `Z` or a `±hh:mm` offset; written in
    /// UTC, in whole seconds (`2026-11-22T02:21:00Z`) unless the date has a fraction, which is kept
    /// (`2026-11-22T02:21:00.25Z`) so that a load followed by a save loses no precision.
    case iso8601
    /// Seconds since 1970 as a number.
    case secondsSince1970
}

extension StateSchema where Model: StateDirectDecodable & StateDirectEncodable {
    /// Builds and validates a schema whose model reads and writes itself directly (`@StateModel` types), with
    /// both captured here, so that loads and saves never look the conformances up at run time.
    ///
    /// The parameters are those of the general initializer.
    /// - Throws: ``MigrationPlanError`` when the chain has a gap, a duplicate, or mismatched types.
    public init(
        currentVersion: Int,
        firstVersion: Int = 1,
        minReaderVersion: Int? = nil,
        versionKey: String = "version",
        minReaderVersionKey: String = "minReaderVersion",
        revisionKey: String = "revision",
        lineageKey: String = "lineage",
        contentChecksumKey: String = ContentChecksum.defaultKey,
        dateCoding: DateCoding = .iso8601,
        migrations: [MigrationStep] = [],
        initial: @escaping @Sendable () -> Model,
        repair: @escaping @Sendable (inout Model, inout RepairLog) throws -> Void = { _, _ in }
    ) throws(MigrationPlanError) {
        try self.init(
            checking: (),
            currentVersion: currentVersion,
            firstVersion: firstVersion,
            minReaderVersion: minReaderVersion,
            versionKey: versionKey,
            minReaderVersionKey: minReaderVersionKey,
            revisionKey: revisionKey,
            lineageKey: lineageKey,
            contentChecksumKey: contentChecksumKey,
            dateCoding: dateCoding,
            migrations: migrations,
            initial: initial,
            repair: repair)
        directModelCoding = DirectModelCoding(
            read: { reader in try Model(stateReader: &reader) }, encodable: { model in model })
    }
}

/// A model's direct reader and writer, captured where `Model`'s conformances to `StateDirectDecodable` and
/// `StateDirectEncodable` are known statically.
struct DirectModelCoding<Model>: Sendable {
    /// Reads a `Model` straight from the bytes.
    let read: @Sendable (inout StateDirectReader) throws -> any Sendable
    /// The model as a writer of itself.
    let encodable: @Sendable (Model) -> any StateDirectEncodable
}
