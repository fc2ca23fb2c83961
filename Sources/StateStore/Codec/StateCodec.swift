import FoundationEssentials
import StateJSON

/// Turns bytes of any supported version into the current model, and the model into deterministic bytes.
///
/// Pure: no files, no clocks beyond timing. ``StateFile`` adds the file handling and policies.
public struct StateCodec<Model: Codable & Sendable>: Sendable {
    /// The schema the codec reads and writes.
    public let schema: StateSchema<Model>
    /// Whether saved files are indented for people; off by default (smaller, faster).
    public var prettyPrinted: Bool
    /// Whether a strict decode reads the bytes straight into the model when its type allows
    /// (`StateDirectDecodable`); off, every decode reads through `Codable`, for the tests that compare the two.
    package var readsDirectly = true
    /// Whether a save writes the model straight into the bytes when its type allows (`StateDirectEncodable`);
    /// off, every save encodes through `Encodable`, for the tests that compare the two.
    package var writesDirectly = true
    /// How far a direct read of a mapped file goes between two releases of the pages it has passed (tests make
    /// it small).
    package var pageReleaseInterval = PageRelease.interval
    /// The size from which a direct read reads a large array at the root in two parts, the second on another
    /// thread (`StateDirectReader.readElements(_:)`); nil: in one (tests make it 0, so that every fixture is read
    /// in parts).
    package var readsInPartsFrom: Int? = 1 << 20

    /// A codec for `schema`.
    public init(schema: StateSchema<Model>, prettyPrinted: Bool = false) {
        self.schema = schema
        self.prettyPrinted = prettyPrinted
    }

    /// Decodes `data` at whatever version wrote it, migrates it to the current version and repairs it.
    ///
    /// - Throws: ``StateDecodingError``.
    public func decode(_ data: Data) throws(StateDecodingError) -> DecodedState<Model> {
        do {
            return try decode(data, context: LoadContext(schema: schema))
        } catch {
            throw error.error
        }
    }

    /// Decodes `data` like ``decode(_:)``; when that fails on a record or field (the JSON and its version are
    /// readable), decodes it again the salvage way (`StateSalvageable`), keeping every record that can be read.
    ///
    /// The result's ``DecodedState/salvage`` lists what the salvage dropped, coerced and defaulted, and is `nil`
    /// when the strict decode succeeded. Migrations and repairs run after a salvage as after a strict decode.
    ///
    /// - Throws: ``StateDecodingError``: the strict decode's error when the file cannot be salvaged.
    public func decode(_ data: Data, salvaging: Bool) throws(StateDecodingError) -> DecodedState<Model> {
        try decode(data, salvaging: salvaging, mappedAt: nil)
    }

    /// When a decode runs the schema's repairs (``StateSchema``'s `repair`).
    package enum RepairPolicy: Sendable {
        /// After every decode, as a load does: a file may hold what the repairs fix.
        case always
        /// Only after a migration: for the bytes of a save of the current version, which wrote a model the store
        /// held, one the repairs had already passed. A read of the past decodes such a snapshot as the model was,
        /// without a pass over every record that can change nothing.
        case whenMigrated
    }

    /// ``decode(_:salvaging:)``; with `mappedAt`, the address of a private read-only mapping of the file
    /// (``PosixFileSystem/loadBytes(at:)``), the direct read of bytes at that address gives back the pages it has
    /// passed, so that the file's bytes and the model it becomes are not resident at once. `repairs` says when the
    /// schema's repairs run (always, by default).
    package func decode(
        _ data: Data, salvaging: Bool, mappedAt: Int?, repairs: RepairPolicy = .always
    ) throws(StateDecodingError) -> DecodedState<Model> {
        let strictFailure: DecodeFailure
        do {
            return try decode(data, context: LoadContext(schema: schema), mappedAt: mappedAt, repairs: repairs)
        } catch {
            strictFailure = error
        }
        guard salvaging, strictFailure.salvageable, case .corrupt(let reason) = strictFailure.error else {
            throw strictFailure.error
        }
        let context = LoadContext(schema: schema, salvaging: true, duplicateKeys: strictFailure.duplicateKeys)
        var decoded: DecodedState<Model>
        do {
            decoded = try decode(data, context: context, repairs: repairs)
        } catch {
            throw .corrupt(reason: reason + "; salvage failed: \(error.error)")
        }
        if let kept = context.duplicateKeysKept().first {
            let place = kept.path.isEmpty ? "the root" : kept.path
            throw .corrupt(
                reason: reason + "; salvage failed: duplicate key \(JSONText.quoted(kept.key)) in \(place) "
                    + "is not inside a record that can be dropped")
        }
        let log = context.salvageLog.withLock { $0 }
        var report = SalvageReport(reason: reason)
        report.droppedRecords = log.dropped
        report.coercedFields = log.coerced
        report.defaultedFields = log.defaulted
        decoded.salvage = report
        return decoded
    }

    /// Why a decode failed, and whether a salvage pass could help: the JSON and its version were readable, and a
    /// record or field was not.
    struct DecodeFailure: Error {
        let error: StateDecodingError
        var salvageable = false
        var duplicateKeys: [(path: String, key: String)] = []
    }

    /// Decodes, migrates and repairs with `context` (strict or salvage). A strict decode reads the bytes straight
    /// into the stored version's type when it has a direct reader (`StateDirectDecodable`), and through
    /// `Codable` when it has none or the direct read refuses the bytes, so that every error, salvage and policy is
    /// the `Codable` path's.
    private func decode(
        _ data: Data, context: LoadContext, mappedAt: Int? = nil, repairs: RepairPolicy = .always
    ) throws(DecodeFailure) -> DecodedState<Model> {
        let clock = ContinuousClock()
        let decodeStart = clock.now
        let stored: StoredPayload
        var fallback: String?
        if context.salvaging || !readsDirectly {
            stored = try readThroughCodable(data, context: context)
            fallback = context.salvaging ? "a salvage reads through Codable" : "direct reads are off"
        } else {
            do {
                stored = try readDirectly(data, mappedAt: mappedAt)
            } catch {
                fallback = "\(error)"
                stored = try readThroughCodable(data, context: context)
            }
        }
        let decodeDuration = clock.now - decodeStart

        let migrateStart = clock.now
        let storedVersion = stored.version
        let storedMinReaderVersion = stored.minReaderVersion
        let storedRevision = stored.revision
        let storedLineage = stored.lineage
        let stampWarning = stored.stampWarning
        var defaulted = stored.fieldsDefaulted
        var unknownKept = stored.unknownKeysKept
        let unknownDropped = stored.unknownKeysDropped
        var value = (consume stored).payload
        var steps: [ClosedRange<Int>] = []
        var warnings: [String] = stampWarning.map { [$0] } ?? []
        if !unknownDropped.isEmpty {
            warnings.append(Self.droppedWarning(unknownDropped, storedVersion: storedVersion))
        }
        var fieldsTakenBack: [String: Int] = [:]
        var version = storedVersion
        while version < schema.currentVersion, let step = schema.stepsByVersion[version] {
            var migration = MigrationContext(fromVersion: version, dateCoding: schema.dateCoding)
            do {
                value = try step.convert(&value, &migration)
            } catch {
                throw DecodeFailure(
                    error: .corrupt(reason: "migration from version \(version) to \(version + 1) failed: \(error)"))
            }
            defaulted.merge(migration.fieldsDefaulted, uniquingKeysWith: +)
            warnings += migration.warnings
            for (field, count) in migration.unknownFieldsReplaced.sorted(by: { $0.key < $1.key }) {
                warnings.append(
                    "\(field): \(count) \(count == 1 ? "record" : "records") held it as an unknown field of "
                        + "version \(version), which version \(version + 1) declares; the migrated value replaced "
                        + "it (the original file still holds it)")
                if let kept = unknownKept[field] {
                    unknownKept[field] = kept > count ? kept - count : nil
                }
            }
            // A field taken back from where a rollback set it aside is a declared field again, not unknown.
            for (field, count) in migration.unknownKeysConsumed {
                if let kept = unknownKept[field] {
                    unknownKept[field] = kept > count ? kept - count : nil
                }
            }
            fieldsTakenBack.merge(migration.fieldsTakenBack, uniquingKeysWith: +)
            steps.append(version...(version + 1))
            version += 1
        }
        guard var model = value as? Model else {
            preconditionFailure("the validated chain did not produce \(Model.self)")
        }
        if !steps.isEmpty, !unknownKept.isEmpty {
            // The steps had unknown fields to carry: they must all be in the migrated model (a rare load, so the
            // walk over the model is affordable).
            let expected = unknownKept.values.reduce(0, +)
            let carried = UnknownFieldsCensus.count(in: model)
            if carried < expected {
                warnings.append(
                    "\(expected - carried) of the \(expected) unknown fields read at version \(storedVersion) "
                        + "(\(unknownKept.keys.sorted().joined(separator: ", "))) are not in the migrated state: a "
                        + "step did not carry them (MigrationContext.carry); the version \(storedVersion) bytes are "
                        + "kept as a backup at the first save")
            }
        }
        // The existential still shares the model's storage: let it go, so that the repairs change the model in
        // place instead of copying every array they touch.
        value = ()
        let migrateDuration = clock.now - migrateStart

        let repairStart = clock.now
        var log = RepairLog()
        if repairs == .always || !steps.isEmpty {
            do {
                try schema.repairModel(&model, &log)
            } catch {
                throw DecodeFailure(error: .corrupt(reason: "validation failed: \(error)"))
            }
        }
        var decoded = DecodedState(
            model: model,
            storedVersion: storedVersion,
            storedMinReaderVersion: storedMinReaderVersion,
            storedRevision: storedRevision,
            storedLineage: storedLineage,
            stepsApplied: steps,
            fieldsDefaulted: defaulted,
            fieldsTakenBack: fieldsTakenBack,
            unknownKeysKept: unknownKept,
            unknownKeysDropped: unknownDropped,
            warnings: warnings,
            repairs: log.repairs,
            isNewerCompatible: storedVersion > schema.currentVersion,
            decodeDuration: decodeDuration,
            migrateDuration: migrateDuration,
            repairDuration: clock.now - repairStart)
        decoded.directReadFallback = fallback
        return decoded
    }

    /// The warning for keys the stored version's types dropped.
    static func droppedWarning(_ dropped: [String: Int], storedVersion: Int) -> String {
        let fields = dropped.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
        let count = dropped.count
        return "\(count) \(count == 1 ? "field" : "fields") of the file \(count == 1 ? "is" : "are") not declared "
            + "and not kept by the model, so the next save drops \(count == 1 ? "it" : "them"): \(fields); the "
            + "version \(storedVersion) bytes are kept as a backup at the first save (keep unknown fields with "
            + "@StateModel, or an UnknownFields property)"
    }

    /// Reads the envelope and the stored version's type through `JSONDecoder`, after a scan for duplicate keys
    /// (a strict decode refuses them), with `context` collecting defaults and unknown keys.
    private func readThroughCodable(_ data: Data, context: LoadContext) throws(DecodeFailure) -> StoredPayload {
        let decoder = JSONDecoder()
        decoder.userInfo[LoadContext.userInfoKey] = context
        switch schema.dateCoding {
        case .iso8601: decoder.dateDecodingStrategy = .custom(Self.decodeISO8601)
        case .secondsSince1970: decoder.dateDecodingStrategy = .secondsSince1970
        }
        if !context.salvaging {
            let duplicates = JSONDefectScanner.duplicateKeys(in: data)
            if let first = duplicates.first {
                let place = first.path.isEmpty ? "the root" : first.path
                throw DecodeFailure(
                    error: .corrupt(reason: "duplicate key \(JSONText.quoted(first.key)) in \(place)"),
                    salvageable: true, duplicateKeys: duplicates)
            }
        }
        let envelope: DecodingEnvelope
        do {
            envelope = try decoder.decode(DecodingEnvelope.self, from: data)
        } catch let refusal as NewerFileRefusal {
            throw DecodeFailure(
                error: .newerVersion(
                    stored: refusal.storedVersion, minReaderVersion: refusal.minReaderVersion,
                    current: schema.currentVersion))
        } catch let unsupported as UnsupportedVersion {
            throw DecodeFailure(
                error: .corrupt(
                    reason: "version \(unsupported.storedVersion) is older than the first version "
                        + "\(unsupported.firstVersion)"))
        } catch let unreadable as UnreadableVersion {
            throw DecodeFailure(error: .corrupt(reason: unreadable.description))
        } catch let error as DecodingError {
            throw Self.failure(error, data: data)
        } catch {
            throw DecodeFailure(error: .corrupt(reason: DecodingErrorDescription.describe(error)))
        }
        var dropped = context.droppedUnknownKeys
        if !context.salvaging {
            // What a type that is not `@StateModel` left out (plain `Codable` ignores the keys it does not
            // declare): found by writing the value back. A salvage lists what it dropped on its own.
            let check = DroppedKeyCheck(reservedRootKeys: context.reservedRootKeys, encoder: jsonEncoder())
            dropped.merge(check.droppedKeys(original: data, decoded: envelope.payload)) { max($0, $1) }
        }
        return StoredPayload(
            version: envelope.storedVersion, minReaderVersion: envelope.storedMinReaderVersion,
            revision: envelope.storedRevision, lineage: envelope.storedLineage, stampWarning: envelope.stampWarning,
            payload: envelope.payload, fieldsDefaulted: context.fieldsDefaulted,
            unknownKeysKept: context.keptUnknownKeys, unknownKeysDropped: dropped)
    }

    /// A decoding error as a failure: bytes that are not JSON are named by ``JSONDefectScanner``; a record or
    /// field that does not decode is salvageable.
    private static func failure(_ error: DecodingError, data: Data) -> DecodeFailure {
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
            if let defect = JSONDefectScanner.firstDefect(in: data) {
                return DecodeFailure(error: .corrupt(reason: defect.description))
            }
            // The bytes are valid JSON: JSONDecoder refused a number its field's type cannot hold (beyond `Int`,
            // or with a fraction), and says so of the whole document, without a path. A salvage reads each field
            // on its own, where that one takes its default or drops its record, so it is worth a try.
            return DecodeFailure(
                error: .corrupt(
                    reason: "valid JSON that JSONDecoder refused without naming where, such as a number its "
                        + "field's type cannot hold (\(context.debugDescription))"),
                salvageable: true)
        }
        let path: [any CodingKey]
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            path = context.codingPath
        case .keyNotFound(let key, let context):
            path = context.codingPath + [key]
        @unknown default:
            path = []
        }
        return DecodeFailure(
            error: .corrupt(reason: DecodingErrorDescription.describe(error)), salvageable: !path.isEmpty)
    }

    /// Encodes `model` with sorted keys, stamping the version and minimum reader version at the root.
    ///
    /// The same model always gives the same bytes.
    /// - Parameters:
    ///   - model: The state to encode.
    ///   - version: The version to stamp; the current one unless a newer compatible file is written back.
    ///   - minReaderVersion: The minimum reader version to stamp; the schema's unless written back.
    public func encode(_ model: Model, version: Int? = nil, minReaderVersion: Int? = nil) throws -> Data {
        try encode(model, version: version, minReaderVersion: minReaderVersion, compact: true)
    }

    /// Encodes like ``encode(_:version:minReaderVersion:)``, also stamping `revision` and `lineage` at the root
    /// (``StateSchema/revisionKey``, ``StateSchema/lineageKey``), as ``StateFile`` saves do; a save also ends the
    /// bytes with the checksum of their content (``ContentChecksum``), which this encode leaves out.
    public func encode(
        _ model: Model, revision: UInt64, lineage: Lineage, version: Int? = nil, minReaderVersion: Int? = nil
    ) throws -> Data {
        try encode(
            model, version: version, minReaderVersion: minReaderVersion, revision: revision, lineage: lineage,
            compact: true)
    }

    /// ``encode(_:version:minReaderVersion:)``, with `JSONEncoder` alone when not `compact` (for the tests that
    /// compare the two; it writes unknown fields as their values, not the text they were read as), making room for
    /// `capacity` bytes up front (what the last save wrote, say), stamped with `revision` and `lineage` when both
    /// are given, and ending with the content checksum under `contentChecksumKey` when it is given
    /// (``ContentChecksum``, as a ``StateFile`` writes it: the compact encoders add it in the block they fill).
    package func encode(
        _ model: Model, version: Int?, minReaderVersion: Int?, revision: UInt64? = nil, lineage: Lineage? = nil,
        compact useCompact: Bool, capacity: Int = 0, contentChecksumKey: String? = nil
    ) throws -> Data {
        let envelope = self.envelope(
            model, version: version, minReaderVersion: minReaderVersion, revision: revision, lineage: lineage)
        let closing = contentChecksumKey.map { ContentChecksum.closingMember(key: $0) }
        if useCompact && !prettyPrinted && writesDirectly, let direct = directEncodable(model) {
            // The same bytes again, written straight by the model's generated `write(stateWriter:)`; anything it
            // does not do as the encoders below do throws, and they write instead.
            if let data = try? writeDirectly(direct, envelope: envelope, capacity: capacity, closing: closing) {
                return data
            }
        }
        if useCompact && !prettyPrinted {
            // The same bytes as `JSONEncoder` below, without its tree of the whole document (the save's peak
            // memory and most of its time); anything it does not do as `JSONEncoder` does, and any error, is
            // left to `JSONEncoder`.
            do {
                return try compactEncoder(capacity: capacity).encode(envelope, replacingLastByte: closing)
            } catch {
                // `JSONEncoder` below gives the bytes, or its own error.
            }
        }
        var data = try jsonEncoder().encode(envelope)
        if let contentChecksumKey { ContentChecksum.append(to: &data, key: contentChecksumKey) }
        return data
    }

    /// `model` with the store's root keys as a save writes them: the version and minimum reader version (the
    /// schema's current ones unless given), and `revision` and `lineage` when both are given.
    func envelope(
        _ model: Model, version: Int?, minReaderVersion: Int?, revision: UInt64?, lineage: Lineage?
    ) -> EncodingEnvelope<Model> {
        var envelope = EncodingEnvelope(
            model: model,
            versionKey: schema.versionKey,
            version: version ?? schema.currentVersion,
            minReaderVersionKey: schema.minReaderVersionKey,
            minReaderVersion: minReaderVersion ?? schema.minReaderVersion)
        if let revision, let lineage {
            envelope.stamp = (schema.revisionKey, revision, schema.lineageKey, lineage)
        }
        return envelope
    }

    /// StateStore's compact encoder set up as the state file is written (dates per the schema), with room for
    /// `capacity` bytes.
    func compactEncoder(capacity: Int) -> CompactJSONEncoder {
        switch schema.dateCoding {
        case .iso8601: CompactJSONEncoder(encodeDate: Self.encodeISO8601, capacity: capacity)
        case .secondsSince1970: CompactJSONEncoder(encodeDate: nil, capacity: capacity)
        }
    }

    /// `JSONEncoder` set up as the state file is written: sorted keys, no escaped slashes, indented when
    /// ``prettyPrinted``, dates per the schema.
    func jsonEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            prettyPrinted
            ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        switch schema.dateCoding {
        case .iso8601: encoder.dateEncodingStrategy = .custom(Self.encodeISO8601)
        case .secondsSince1970: encoder.dateEncodingStrategy = .secondsSince1970
        }
        return encoder
    }

    /// Reads an ISO 8601 date-time, with or without fractional seconds, in UTC or with an offset.
    @Sendable static func decodeISO8601(_ decoder: any Decoder) throws -> Date {
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
    @Sendable static func encodeISO8601(_ date: Date, _ encoder: any Encoder) throws {
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
