import FoundationEssentials
import StateJSON

extension StateCodec {
    /// Reads the envelope and the stored version's model straight from the bytes (`StateDirectDecodable`), in
    /// one pass when the version is the root's last member (as every file StateStore writes has it), else in two
    /// (the root's members skipped to find the version first).
    ///
    /// Only the common case is read here: a version between the first and the current one whose type has a direct
    /// reader, with a plain envelope. Anything else throws, and the load reads the file through `Codable`, which
    /// gives the same state or names what is wrong.
    ///
    /// When `data`'s bytes are at `mappedAt`, the address of a read-only mapping of the file, the read gives back
    /// the pages it has passed (``PageRelease``).
    func readDirectly(_ data: Data, mappedAt: Int? = nil) throws -> StoredPayload {
        let keys = StateDirectEnvelope.Keys(
            version: schema.versionKey, minReaderVersion: schema.minReaderVersionKey, revision: schema.revisionKey,
            lineage: schema.lineageKey, contentChecksum: schema.contentChecksumKey)
        let dateCoding: StateDirectDateCoding =
            switch schema.dateCoding {
            case .iso8601: .iso8601
            case .secondsSince1970: .secondsSince1970
            }
        return try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> StoredPayload in
            let lastMember = Self.versionAtEnd(
                of: bytes, key: schema.versionKey, contentChecksumKey: schema.contentChecksumKey)
            let version = try lastMember ?? Self.versionInFirstPass(of: bytes, keys: keys) ?? schema.firstVersion
            guard let read = directReader(forVersion: version) else {
                throw StateDirectReadError("version \(version) has no direct reader", at: 0)
            }
            var reader = StateDirectReader(bytes: bytes, dateCoding: dateCoding, envelopeKeys: keys)
            if let mappedAt, Int(bitPattern: bytes.baseAddress) == mappedAt, let release = PageRelease(of: bytes) {
                reader.releaseBytes(every: pageReleaseInterval) { release.release($0) }
            }
            reader.splitsArraysFrom = readsInPartsFrom
            let payload = try read(&reader)
            try reader.finish()
            let envelope = reader.envelope
            guard (envelope.version ?? schema.firstVersion) == version,
                lastMember == nil || envelope.hasVersionKey
            else {
                throw StateDirectReadError(
                    "the version read (\(String(describing: envelope.version))) is not \(version)", at: 0)
            }
            var lineage: Lineage?
            if let text = envelope.lineage {
                guard let parsed = Lineage(rawValue: text) else {
                    throw StateDirectReadError("the lineage is not a lineage", at: 0)
                }
                lineage = parsed
            }
            return StoredPayload(
                version: version, minReaderVersion: envelope.minReaderVersion, revision: envelope.revision,
                lineage: lineage, stampWarning: nil, payload: payload, fieldsDefaulted: reader.fieldsDefaulted,
                unknownKeysKept: reader.unknownKeysKept, unknownKeysDropped: reader.unknownKeysDropped)
        }
    }

    /// The direct reader of the type that stores `version`; nil outside the versions this release reads, or when
    /// that type has none.
    private func directReader(
        forVersion version: Int
    ) -> (@Sendable (inout StateDirectReader) throws -> any Sendable)? {
        guard version >= schema.firstVersion, version <= schema.currentVersion else { return nil }
        if version < schema.currentVersion { return schema.stepsByVersion[version]?.directDecoder() }
        if let coding = schema.directModelCoding { return coding.read }
        return MigrationStep.directDecoder(of: Model.self)
    }

    /// The version when the root object's last member is the version key holding plain digits, as StateStore
    /// writes it (`…,"version":4}`), or the last but the content checksum (`…,"version":4,"contentChecksum":"…"}`,
    /// ``ContentChecksum``); nil otherwise. A guess from the end of the bytes: the read that follows checks that the
    /// root holds exactly this version.
    static func versionAtEnd(of bytes: UnsafeRawBufferPointer, key: String, contentChecksumKey: String) -> Int? {
        var end = bytes.count
        func skipWhitespace() {
            while end > 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end - 1]) { end -= 1 }
        }
        if let checksum = ContentChecksum.member(in: bytes, key: contentChecksumKey) {
            end = checksum.comma
        } else {
            skipWhitespace()
            guard end > 0, bytes[end - 1] == UInt8(ascii: "}") else { return nil }
            end -= 1
        }
        skipWhitespace()
        var value = 0
        var scale = 1
        var digits = 0
        while end > 0, bytes[end - 1] >= UInt8(ascii: "0"), bytes[end - 1] <= UInt8(ascii: "9"), digits < 9 {
            value += Int(bytes[end - 1] - UInt8(ascii: "0")) * scale
            scale *= 10
            digits += 1
            end -= 1
        }
        guard digits > 0 else { return nil }
        skipWhitespace()
        guard end > 0, bytes[end - 1] == UInt8(ascii: ":") else { return nil }
        end -= 1
        skipWhitespace()
        let quoted = Array(("\"" + key + "\"").utf8)
        guard end >= quoted.count,
            quoted.elementsEqual(UnsafeRawBufferPointer(rebasing: bytes[(end - quoted.count)..<end]))
        else { return nil }
        return value
    }

    /// The version key's value, read in a first pass over the root's members (their values skipped); nil when the
    /// root has no version key or holds `null`.
    private static func versionInFirstPass(
        of bytes: UnsafeRawBufferPointer, keys: StateDirectEnvelope.Keys
    ) throws -> Int? {
        var reader = StateDirectReader(bytes: bytes, envelopeKeys: keys)
        try reader.beginObject()
        while let key = try reader.nextKey() {
            // Skipped as JSONDecoder skips, no more: the read that follows checks every member (duplicate keys
            // included) as its types read them.
            if try !reader.captureEnvelopeKey(key) { try reader.skipValue() }
        }
        try reader.finish()
        return reader.envelope.version
    }
}

extension StateCodec {
    /// The bytes of `envelope` written by the model's own `write(stateWriter:)` (`StateDirectEncodable`), with
    /// the store's root keys merged in where they belong: the bytes the `Encodable` path gives; with `closing`,
    /// their last byte replaced by what it returns (``ContentChecksum/closingMember(key:)``).
    func writeDirectly<Envelope: Encodable>(
        _ model: any StateDirectEncodable, envelope: EncodingEnvelope<Envelope>, capacity: Int,
        closing: ((UnsafeRawBufferPointer, UInt8) throws -> [UInt8])? = nil
    ) throws -> Data {
        var writer = StateDirectWriter(
            dateCoding: directDateCoding, capacity: capacity, rootMembers: Self.rootMembers(of: envelope))
        try model.write(stateWriter: &writer)
        guard writer.wroteRootMembers else { throw StateDirectWriteError("the model did not write an object") }
        if let closing { try writer.replaceLastByte(closing) }
        return writer.takeData()
    }

    /// Whether ``write(_:version:minReaderVersion:revision:lineage:pieceSize:to:)`` can write `model` in pieces:
    /// the model writes itself (`StateDirectEncodable`) and the file is compact.
    package func writesInPieces(_ model: Model) -> Bool {
        !prettyPrinted && writesDirectly && directEncodable(model) != nil
    }

    /// `model` as a writer of itself, when it is one: from the schema when it captured the conformance, else
    /// looked up.
    func directEncodable(_ model: Model) -> (any StateDirectEncodable)? {
        if let coding = schema.directModelCoding { return coding.encodable(model) }
        return model as? any StateDirectEncodable
    }

    /// Writes the bytes ``encode(_:version:minReaderVersion:revision:lineage:compact:capacity:)`` gives for
    /// `model` to `sink`, in pieces of about `pieceSize` bytes, when ``writesInPieces(_:)``; returns `false`
    /// without calling `sink` otherwise.
    ///
    /// - Throws: The sink's errors, and the direct writer's refusals (after `sink` may have had some of the bytes:
    ///   the caller discards them and encodes the other way).
    ///
    /// With `contentChecksumKey`, the bytes end with the content checksum under that key (``ContentChecksum``),
    /// computed over the pieces as they go to `sink`: the bytes the encode gives with the same key.
    package func write(
        _ model: Model, version: Int?, minReaderVersion: Int?, revision: UInt64, lineage: Lineage, pieceSize: Int,
        contentChecksumKey: String? = nil, to sink: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) throws -> Bool {
        guard writesInPieces(model), let direct = directEncodable(model) else { return false }
        let envelope = self.envelope(
            model, version: version, minReaderVersion: minReaderVersion, revision: revision, lineage: lineage)
        var checksum: UInt32 = 0
        var hashing = contentChecksumKey != nil
        var writer = StateDirectWriter(
            dateCoding: directDateCoding, pieceSize: pieceSize, rootMembers: Self.rootMembers(of: envelope),
            sink: { piece in
                if hashing { checksum = CRC32C.checksum(piece, continuing: checksum) }
                try sink(piece)
            })
        try direct.write(stateWriter: &writer)
        guard writer.wroteRootMembers else { throw StateDirectWriteError("the model did not write an object") }
        if let contentChecksumKey {
            // The root's `}` is still in the writer (pieces are handed on between array elements only): the
            // member goes before it, the bytes before it hashed after the pieces handed on, and the last piece,
            // member included, goes out unhashed.
            hashing = false
            try writer.replaceLastByte(ContentChecksum.closingMember(key: contentChecksumKey, continuing: checksum))
        }
        try writer.finish()
        return true
    }

    /// The store's keys written at the root beside the model's: version, minimum reader version and, when
    /// stamped, revision and lineage.
    private static func rootMembers<Envelope>(of envelope: EncodingEnvelope<Envelope>) -> [RootMember] {
        var root: [RootMember] = [
            (envelope.versionKey, .integer(Int64(envelope.version))),
            (envelope.minReaderVersionKey, .integer(Int64(envelope.minReaderVersion))),
        ]
        if let stamp = envelope.stamp {
            let revision: JSONValue =
                stamp.revision <= UInt64(Int64.max) ? .integer(Int64(stamp.revision)) : .unsignedInteger(stamp.revision)
            root.append((stamp.revisionKey, revision))
            root.append((stamp.lineageKey, .string(stamp.lineage.rawValue)))
        }
        return root
    }

    /// A key of the store's and its value, written at the root.
    private typealias RootMember = (key: String, value: JSONValue)

    /// How the direct writer writes dates, per the schema.
    private var directDateCoding: StateDirectDateCoding {
        switch schema.dateCoding {
        case .iso8601: .iso8601
        case .secondsSince1970: .secondsSince1970
        }
    }
}
