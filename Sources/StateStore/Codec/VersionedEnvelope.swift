/// Reads the version from the root object and decodes the document as that version's type, in one pass.
///
/// The document is parsed once; the version is a single key lookup on the root object, and the root decoder is
/// then handed to the stored version's own type. No version is ever tried by trial decoding.
struct DecodingEnvelope: Decodable {
    let storedVersion: Int
    let storedMinReaderVersion: Int?
    let payload: any Sendable

    init(from decoder: any Decoder) throws {
        guard let context = decoder.userInfo[LoadContext.userInfoKey] as? LoadContext else {
            preconditionFailure("DecodingEnvelope needs a LoadContext in userInfo")
        }
        let root = try decoder.container(keyedBy: AnyCodingKey.self)
        let version = try root.decodeIfPresent(Int.self, forKey: AnyCodingKey(context.versionKey))
        let minReader = try root.decodeIfPresent(Int.self, forKey: AnyCodingKey(context.minReaderVersionKey))
        let stored = version ?? context.firstVersion
        storedVersion = stored
        storedMinReaderVersion = minReader
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

    func encode(to encoder: any Encoder) throws {
        try model.encode(to: encoder)
        var root = encoder.container(keyedBy: AnyCodingKey.self)
        try root.encode(version, forKey: AnyCodingKey(versionKey))
        try root.encode(minReaderVersion, forKey: AnyCodingKey(minReaderVersionKey))
    }
}
