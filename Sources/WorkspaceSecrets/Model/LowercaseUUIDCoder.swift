import FoundationEssentials
import StateStore

/// A UUID stored as text: read in any letter case, written in lower case.
enum LowercaseUUIDCoder: StateDirectFieldCoder {
    /// The UUID stored under `key`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the text is not a UUID.
    static func decode<Key: CodingKey>(from container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> UUID {
        let text = try container.decode(String.self, forKey: key)
        guard let id = UUID(uuidString: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\"\(text)\" is not a UUID")
        }
        return id
    }

    /// The UUID read straight from a state file's bytes, as `decode(from:forKey:)` reads it.
    ///
    /// - Throws: `StateDirectReadError` when the text is not a UUID.
    static func decode(stateReader reader: inout StateDirectReader) throws -> UUID {
        try UUID(stateReader: &reader)
    }

    /// Writes `value` in lower case, straight into a state file's bytes.
    static func write(_ value: UUID, stateWriter writer: inout StateDirectWriter) throws {
        writer.writeString(value.uuidString.lowercased())
    }

    /// Writes `value` in lower case.
    static func encode<Key: CodingKey>(
        _ value: UUID, to container: inout KeyedEncodingContainer<Key>, forKey key: Key
    ) throws {
        try container.encode(value.uuidString.lowercased(), forKey: key)
    }
}
