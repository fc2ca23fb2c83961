import Synchronization

/// What a load needs inside the decoder (how to read the version, which type reads which version) and what it
/// collects there (the unknown keys kept and the missing fields given their default, by path).
///
/// Reached through the decoder's `userInfo` so that model types need no extra parameters.
final class LoadContext: Sendable {
    static let userInfoKey = CodingUserInfoKey(rawValue: "StateStore.LoadContext")!

    let versionKey: String
    let minReaderVersionKey: String
    let revisionKey: String
    let lineageKey: String
    let firstVersion: Int
    let currentVersion: Int
    let reservedRootKeys: Set<String>
    /// Decoders by stored version; the current version's decodes the model itself. In a salvage, each version's
    /// salvage decoder.
    let versionDecoders: [Int: @Sendable (any Decoder) throws -> any Sendable]
    /// Whether this is a salvage pass (``StateSalvageable``) rather than the strict decode.
    let salvaging: Bool
    /// In a salvage: the objects holding a key twice, by path (`projects[1]`), with the key.
    let duplicateKeys: DuplicateKeyIndex
    private let unknownKeys = Mutex<[String: Int]>([:])
    private let defaultedFields = Mutex<[String: Int]>([:])
    let salvageLog = Mutex(SalvageLog())

    /// A context for a strict decode of `schema`, or for a salvage pass that drops the records holding
    /// `duplicateKeys`.
    init<Model>(schema: StateSchema<Model>, salvaging: Bool = false, duplicateKeys: [(path: String, key: String)] = [])
    {
        versionKey = schema.versionKey
        minReaderVersionKey = schema.minReaderVersionKey
        revisionKey = schema.revisionKey
        lineageKey = schema.lineageKey
        firstVersion = schema.firstVersion
        currentVersion = schema.currentVersion
        reservedRootKeys = [schema.versionKey, schema.minReaderVersionKey, schema.revisionKey, schema.lineageKey]
        self.salvaging = salvaging
        self.duplicateKeys = DuplicateKeyIndex(duplicateKeys)
        var decoders = schema.stepsByVersion.mapValues { step in salvaging ? step.salvageDecode : step.decode }
        if salvaging {
            decoders[schema.currentVersion] = { @Sendable decoder in try Salvaging<Model>.decodeNested(from: decoder) }
        } else {
            decoders[schema.currentVersion] = { @Sendable decoder in try Model(from: decoder) }
        }
        versionDecoders = decoders
    }

    /// The context of the load `decoder` belongs to; `nil` outside a ``StateCodec`` load.
    static func of(_ decoder: any Decoder) -> LoadContext? {
        decoder.userInfo[userInfoKey] as? LoadContext
    }

    /// Records keys kept at `codingPath`, with array indices folded to `[]` so counts aggregate per field.
    func recordUnknownKeys(_ keys: some Sequence<String>, at codingPath: [any CodingKey]) {
        let prefix = Self.fieldPath(codingPath)
        unknownKeys.withLock { counts in
            for key in keys {
                counts[prefix.isEmpty ? key : prefix + "." + key, default: 0] += 1
            }
        }
    }

    /// Records that the field `key` of the object at `codingPath` was missing and got its default.
    func recordDefaulted(_ key: String, at codingPath: [any CodingKey]) {
        let prefix = Self.fieldPath(codingPath)
        defaultedFields.withLock { $0[prefix.isEmpty ? key : prefix + "." + key, default: 0] += 1 }
    }

    var keptUnknownKeys: [String: Int] { unknownKeys.withLock { $0 } }

    var fieldsDefaulted: [String: Int] { defaultedFields.withLock { $0 } }

    /// `projects[].panes[]` for the path `projects, 0, panes, 3`: array indices folded so counts aggregate.
    private static func fieldPath(_ codingPath: [any CodingKey]) -> String {
        var path = ""
        for key in codingPath {
            if key.intValue != nil {
                path += "[]"
            } else {
                path += path.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return path
    }
}
