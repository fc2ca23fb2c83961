import FoundationEssentials
import StateJSON

/// Reads the version from the root object and decodes the document as that version's type, in one pass.
///
/// The document is parsed once; the version is a single key lookup on the root object, and the root decoder is
/// then handed to the stored version's own type. No version is ever tried by trial decoding.
struct DecodingEnvelope: Decodable {
    let storedVersion: Int
    let storedMinReaderVersion: Int?
    let storedRevision: UInt64?
    let storedLineage: Lineage?
    /// What was wrong with a stored revision or lineage (both are then ignored: the state gets a new lineage).
    let stampWarning: String?
    let payload: any Sendable

    init(from decoder: any Decoder) throws {
        guard let context = LoadContext.of(decoder) else {
            preconditionFailure("DecodingEnvelope needs a LoadContext in userInfo")
        }
        let root = try decoder.container(keyedBy: AnyCodingKey.self)
        let version = try Self.version(context.versionKey, in: root)
        let minReader = try Self.version(context.minReaderVersionKey, in: root)
        let stored = version ?? context.firstVersion
        storedVersion = stored
        storedMinReaderVersion = minReader
        (storedRevision, storedLineage, stampWarning) = Self.stamp(context, in: root)
        if stored > context.currentVersion {
            guard let minReader, minReader <= context.currentVersion else {
                throw NewerFileRefusal(storedVersion: stored, minReaderVersion: minReader)
            }
            payload = try context.versionDecoders[context.currentVersion]!(decoder)
        } else if let decode = context.versionDecoders[stored] {
            payload = try decode(decoder)
        } else {
            throw UnsupportedVersion(storedVersion: stored, firstVersion: context.firstVersion)
        }
    }
}

extension DecodingEnvelope {
    /// The stored revision and lineage; both `nil` with a warning when either is present and unreadable, so that
    /// a damaged stamp never continues a history.
    private static func stamp(
        _ context: LoadContext, in root: KeyedDecodingContainer<AnyCodingKey>
    ) -> (UInt64?, Lineage?, String?) {
        let revisionKey = AnyCodingKey(context.revisionKey)
        let lineageKey = AnyCodingKey(context.lineageKey)
        let revision: UInt64?
        let lineageText: String?
        do {
            revision = try root.decodeIfPresent(UInt64.self, forKey: revisionKey)
        } catch {
            return (nil, nil, "the revision key \(JSONText.quoted(context.revisionKey)) holds no revision number")
        }
        do {
            lineageText = try root.decodeIfPresent(String.self, forKey: lineageKey)
        } catch {
            return (nil, nil, "the lineage key \(JSONText.quoted(context.lineageKey)) holds no string")
        }
        guard let lineageText else { return (revision, nil, nil) }
        guard let lineage = Lineage(rawValue: lineageText) else {
            return (nil, nil, "the lineage \(JSONText.quoted(lineageText)) is not a lineage")
        }
        return (revision, lineage, nil)
    }

    /// The whole number at `key`, if any; ``UnreadableVersion`` when the key holds anything else.
    private static func version(_ key: String, in root: KeyedDecodingContainer<AnyCodingKey>) throws -> Int? {
        do {
            return try root.decodeIfPresent(Int.self, forKey: AnyCodingKey(key))
        } catch {
            throw UnreadableVersion(key: key, stored: try? root.decode(JSONValue.self, forKey: AnyCodingKey(key)))
        }
    }
}

/// Thrown from inside the decoder when the version (or minimum reader version) is not a whole number.
struct UnreadableVersion: Error, CustomStringConvertible {
    let key: String
    let stored: JSONValue?

    /// `the version key "version" holds 1.5, which is not a whole number`.
    var description: String {
        let what: String
        switch stored {
        case .integer(let number): what = "\(number), which is not a version this release can read"
        case .unsignedInteger(let number): what = "\(number), a whole number too large to be a version"
        case .decimal(let number):
            what =
                number.exponent >= 0
                ? "\(number), a whole number too large to be a version" : "\(number), which is not a whole number"
        case .double(let number): what = "\(number), a number too large to be a version"
        case .string(let text): what = "the string \(JSONText.quoted(text)), not a whole number"
        case .bool(let value): what = "\(value), not a whole number"
        case .array: what = "an array, not a whole number"
        case .object: what = "an object, not a whole number"
        case .null, nil: what = "a value that is not a whole number"
        }
        return "the version key \(JSONText.quoted(key)) holds \(what)"
    }
}

/// Thrown from inside the decoder when a newer file does not allow this release to read it.
struct NewerFileRefusal: Error {
    let storedVersion: Int
    let minReaderVersion: Int?
}

/// Thrown from inside the decoder when a file claims a version older than the first one.
struct UnsupportedVersion: Error {
    let storedVersion: Int
    let firstVersion: Int
}

/// Writes the model and then the store's own root keys, so the version keys always reflect what was written.
struct EncodingEnvelope<Model: Encodable>: Encodable {
    let model: Model
    let versionKey: String
    let version: Int
    let minReaderVersionKey: String
    let minReaderVersion: Int
    /// The revision and lineage keys and values, written when the store knows them (a ``StateFile`` save).
    var stamp: (revisionKey: String, revision: UInt64, lineageKey: String, lineage: Lineage)?

    func encode(to encoder: any Encoder) throws {
        try model.encode(to: encoder)
        var root = encoder.container(keyedBy: AnyCodingKey.self)
        try root.encode(version, forKey: AnyCodingKey(versionKey))
        try root.encode(minReaderVersion, forKey: AnyCodingKey(minReaderVersionKey))
        if let stamp {
            try root.encode(stamp.revision, forKey: AnyCodingKey(stamp.revisionKey))
            try root.encode(stamp.lineage.rawValue, forKey: AnyCodingKey(stamp.lineageKey))
        }
    }
}
