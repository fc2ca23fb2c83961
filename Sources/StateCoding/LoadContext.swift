import Synchronization

/// What a load needs inside the decoder (how to read the version, which type reads which version) and what it
/// collects there (the unknown keys kept and the missing fields given their default, by path).
///
/// Reached through the decoder's `userInfo` so that model types need no extra parameters.
package final class LoadContext: Sendable {
    package static let userInfoKey = CodingUserInfoKey(rawValue: "StateStore.LoadContext")!

    package let versionKey: String
    package let minReaderVersionKey: String
    package let revisionKey: String
    package let lineageKey: String
    /// The root key of the content checksum a store writes last in a file: not the model's, never kept.
    package let contentChecksumKey: String
    package let firstVersion: Int
    package let currentVersion: Int
    package let reservedRootKeys: Set<String>
    /// Decoders by stored version; the current version's decodes the model itself. In a salvage, each version's
    /// salvage decoder.
    package let versionDecoders: [Int: @Sendable (any Decoder) throws -> any Sendable]
    /// Whether this is a salvage pass (``StateSalvageable``) rather than the strict decode.
    package let salvaging: Bool
    /// In a salvage: the objects holding a key twice, by path (`projects[1]`), with the key.
    package let duplicateKeys: DuplicateKeyIndex
    private let unknownKeys = Mutex<[String: Int]>([:])
    private let defaultedFields = Mutex<[String: Int]>([:])
    private let droppedKeys = Mutex<[String: Int]>([:])
    package let salvageLog = Mutex(SalvageLog())

    /// A context for a decode of a file whose envelope keys are `versionKey`, `minReaderVersionKey`, `revisionKey`,
    /// `lineageKey` and `contentChecksumKey`, stored at versions `firstVersion` to `currentVersion` and read by
    /// `versionDecoders`; a salvage pass (`salvaging`) drops the records holding `duplicateKeys`.
    ///
    /// StateStore builds it from a schema (`LoadContext(schema:)`).
    package init(
        versionKey: String, minReaderVersionKey: String, revisionKey: String, lineageKey: String,
        contentChecksumKey: String, firstVersion: Int, currentVersion: Int,
        versionDecoders: [Int: @Sendable (any Decoder) throws -> any Sendable],
        salvaging: Bool, duplicateKeys: [(path: String, key: String)]
    ) {
        self.versionKey = versionKey
        self.minReaderVersionKey = minReaderVersionKey
        self.revisionKey = revisionKey
        self.lineageKey = lineageKey
        self.contentChecksumKey = contentChecksumKey
        self.firstVersion = firstVersion
        self.currentVersion = currentVersion
        reservedRootKeys = [versionKey, minReaderVersionKey, revisionKey, lineageKey, contentChecksumKey]
        self.versionDecoders = versionDecoders
        self.salvaging = salvaging
        self.duplicateKeys = DuplicateKeyIndex(duplicateKeys)
    }

    /// The context of the load `decoder` belongs to; `nil` outside a `StateCodec` load.
    package static func of(_ decoder: any Decoder) -> LoadContext? {
        decoder.userInfo[userInfoKey] as? LoadContext
    }

    /// Records keys kept at `codingPath`, with array indices folded to `[]` so counts aggregate per field.
    package func recordUnknownKeys(_ keys: some Sequence<String>, at codingPath: [any CodingKey]) {
        let prefix = Self.fieldPath(codingPath)
        unknownKeys.withLock { counts in
            for key in keys {
                counts[prefix.isEmpty ? key : prefix + "." + key, default: 0] += 1
            }
        }
    }

    /// Records keys of the object at `codingPath` that its type neither declares nor keeps: dropped, by path.
    package func recordDroppedKeys(_ keys: some Sequence<String>, at codingPath: [any CodingKey]) {
        let prefix = Self.fieldPath(codingPath)
        droppedKeys.withLock { counts in
            for key in keys {
                counts[prefix.isEmpty ? key : prefix + "." + key, default: 0] += 1
            }
        }
    }

    /// Records that the field `key` of the object at `codingPath` was missing and got its default.
    package func recordDefaulted(_ key: String, at codingPath: [any CodingKey]) {
        let prefix = Self.fieldPath(codingPath)
        defaultedFields.withLock { $0[prefix.isEmpty ? key : prefix + "." + key, default: 0] += 1 }
    }

    package var keptUnknownKeys: [String: Int] { unknownKeys.withLock { $0 } }

    package var fieldsDefaulted: [String: Int] { defaultedFields.withLock { $0 } }

    /// The keys dropped so far (``recordDroppedKeys(_:at:)``), by path, with how many records held each.
    package var droppedUnknownKeys: [String: Int] { droppedKeys.withLock { $0 } }

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
