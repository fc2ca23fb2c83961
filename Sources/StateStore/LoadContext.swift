import Synchronization

/// What a load needs inside the decoder (how to read the version, which type reads which version) and what it
/// collects there (the unknown keys kept, by path).
///
/// Reached through the decoder's `userInfo` so that model types need no extra parameters.
final class LoadContext: Sendable {
    static let userInfoKey = CodingUserInfoKey(rawValue: "StateStore.LoadContext")!

    let versionKey: String
    let minReaderVersionKey: String
    let firstVersion: Int
    let currentVersion: Int
    let reservedRootKeys: Set<String>
    /// Decoders by stored version; the current version's decodes the model itself.
    let versionDecoders: [Int: @Sendable (any Decoder) throws -> any Sendable]
    private let unknownKeys = Mutex<[String: Int]>([:])

    init<Model>(schema: StateSchema<Model>) {
        versionKey = schema.versionKey
        minReaderVersionKey = schema.minReaderVersionKey
        firstVersion = schema.firstVersion
        currentVersion = schema.currentVersion
        reservedRootKeys = [schema.versionKey, schema.minReaderVersionKey]
        var decoders = schema.stepsByVersion.mapValues { $0.decode }
        decoders[schema.currentVersion] = { decoder in try Model(from: decoder) }
        versionDecoders = decoders
    }

    /// Records keys kept at `codingPath`, with array indices folded to `[]` so counts aggregate per field.
    func recordUnknownKeys(_ keys: some Sequence<String>, at codingPath: [any CodingKey]) {
        var prefix = ""
        for key in codingPath {
            if key.intValue != nil {
                prefix += "[]"
            } else {
                prefix += prefix.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        unknownKeys.withLock { counts in
            for key in keys {
                counts[prefix.isEmpty ? key : prefix + "." + key, default: 0] += 1
            }
        }
    }

    var keptUnknownKeys: [String: Int] { unknownKeys.withLock { $0 } }
}
