import Foundation

/// Turns bytes of any supported version into the current model, and the model into deterministic bytes.
///
/// Pure: no files, no clocks beyond timing. ``StateFile`` adds the file handling and policies.
public struct StateCodec<Model: Codable & Sendable>: Sendable {
    /// The schema the codec reads and writes.
    public let schema: StateSchema<Model>
    /// Whether saved files are indented for people; off by default (smaller, faster).
    public var prettyPrinted: Bool

    /// A codec for `schema`.
    public init(schema: StateSchema<Model>, prettyPrinted: Bool = false) {
        self.schema = schema
        self.prettyPrinted = prettyPrinted
    }

    /// Decodes `data` at whatever version wrote it, migrates it to the current version and repairs it.
    ///
    /// - Throws: ``StateDecodingError``.
    public func decode(_ data: Data) throws(StateDecodingError) -> DecodedState<Model> {
        let clock = ContinuousClock()
        let context = LoadContext(schema: schema)
        let decoder = JSONDecoder()
        decoder.userInfo[LoadContext.userInfoKey] = context
        switch schema.dateCoding {
        case .iso8601: decoder.dateDecodingStrategy = .custom(Self.decodeISO8601)
        case .secondsSince1970: decoder.dateDecodingStrategy = .secondsSince1970
        }
        let decodeStart = clock.now
        let envelope: DecodingEnvelope
        do {
            envelope = try decoder.decode(DecodingEnvelope.self, from: data)
        } catch let refusal as NewerFileRefusal {
            throw .newerVersion(
                stored: refusal.storedVersion, minReaderVersion: refusal.minReaderVersion,
                current: schema.currentVersion)
        } catch let unsupported as UnsupportedVersion {
            throw .corrupt(
                reason: "version \(unsupported.storedVersion) is older than the first version "
                    + "\(unsupported.firstVersion)")
        } catch {
            throw .corrupt(reason: DecodingErrorDescription.describe(error))
        }
        let decodeDuration = clock.now - decodeStart

        let migrateStart = clock.now
        var value = envelope.payload
        var steps: [ClosedRange<Int>] = []
        var defaulted = context.fieldsDefaulted
        var warnings: [String] = []
        var version = envelope.storedVersion
        while version < schema.currentVersion, let step = schema.stepsByVersion[version] {
            var migration = MigrationContext(fromVersion: version)
            do {
                value = try step.convert(value, &migration)
            } catch {
                throw .corrupt(reason: "migration from version \(version) to \(version + 1) failed: \(error)")
            }
            defaulted.merge(migration.fieldsDefaulted, uniquingKeysWith: +)
            warnings += migration.warnings
            steps.append(version...(version + 1))
            version += 1
        }
        guard var model = value as? Model else {
            preconditionFailure("the validated chain did not produce \(Model.self)")
        }
        let migrateDuration = clock.now - migrateStart

        let repairStart = clock.now
        var log = RepairLog()
        do {
            try schema.repairModel(&model, &log)
        } catch {
            throw .corrupt(reason: "validation failed: \(error)")
        }
        return DecodedState(
            model: model,
            storedVersion: envelope.storedVersion,
            storedMinReaderVersion: envelope.storedMinReaderVersion,
            stepsApplied: steps,
            fieldsDefaulted: defaulted,
            unknownKeysKept: context.keptUnknownKeys,
            warnings: warnings,
            repairs: log.repairs,
            isNewerCompatible: envelope.storedVersion > schema.currentVersion,
            decodeDuration: decodeDuration,
            migrateDuration: migrateDuration,
            repairDuration: clock.now - repairStart)
    }

    /// Encodes `model` with sorted keys, stamping the version and minimum reader version at the root.
    ///
    /// The same model always gives the same bytes.
    /// - Parameters:
    ///   - version: The version to stamp; the current one unless a newer compatible file is written back.
    ///   - minReaderVersion: The minimum reader version to stamp; the schema's unless written back.
    public func encode(_ model: Model, version: Int? = nil, minReaderVersion: Int? = nil) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            prettyPrinted
            ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        switch schema.dateCoding {
        case .iso8601: encoder.dateEncodingStrategy = .custom(Self.encodeISO8601)
        case .secondsSince1970: encoder.dateEncodingStrategy = .secondsSince1970
        }
        let envelope = EncodingEnvelope(
            model: model,
            versionKey: schema.versionKey,
            version: version ?? schema.currentVersion,
            minReaderVersionKey: schema.minReaderVersionKey,
            minReaderVersion: minReaderVersion ?? schema.minReaderVersion)
        return try encoder.encode(envelope)
    }

    /// Reads an ISO 8601 date-time, with or without fractional seconds, in UTC or with an offset.
    @Sendable private static func decodeISO8601(_ decoder: any Decoder) throws -> Date {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = ISO8601Timestamp.date(from: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\"\(text)\" is not an ISO 8601 date-time such as 2026-11-22T02:21:00Z")
        }
        return date
    }

    /// Writes a date in UTC, in whole seconds unless it has a fraction.
    @Sendable private static func encodeISO8601(_ date: Date, _ encoder: any Encoder) throws {
        let text: String
        do {
            text = try ISO8601Timestamp.string(from: date)
        } catch {
            throw EncodingError.invalidValue(
                date, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: error.description))
        }
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
