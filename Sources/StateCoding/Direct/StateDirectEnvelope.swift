/// The store's own root keys (version, minimum reader version, revision, lineage; the content checksum is skipped)
/// as a direct read found them at the root of a state file.
///
/// Only the plain forms are read: a whole number or `null`, a string or `null`. Anything else (a version that is not
/// a whole number, a revision that is not one) throws, so that the `Codable` path says what is wrong with it.
package struct StateDirectEnvelope: Sendable, Equatable {
    /// The names of the keys.
    package struct Keys: Sendable {
        package let version: String
        package let minReaderVersion: String
        package let revision: String
        package let lineage: String
        /// The content checksum's key: its value is skipped (the store checks the checksum on the bytes).
        package let contentChecksum: String

        /// The root keys of a schema.
        package init(
            version: String, minReaderVersion: String, revision: String, lineage: String, contentChecksum: String
        ) {
            self.version = version
            self.minReaderVersion = minReaderVersion
            self.revision = revision
            self.lineage = lineage
            self.contentChecksum = contentChecksum
        }
    }

    /// The version key's value; nil when it is missing or `null`.
    package var version: Int?
    /// Whether the version key is present (`null` included).
    package var hasVersionKey = false
    /// The minimum reader version; nil when missing or `null`.
    package var minReaderVersion: Int?
    /// The revision; nil when missing or `null`.
    package var revision: UInt64?
    /// The lineage's text; nil when missing or `null`.
    package var lineage: String?
    /// Which of the keys were seen, to refuse one held twice.
    var seen: UInt8 = 0

    package init() {}
}

extension StateDirectReader {
    /// Whether `key` is one of the envelope's keys at the root; if it is, reads its value into `envelope`.
    package mutating func captureEnvelopeKey(_ key: StateDirectKey) throws -> Bool {
        guard let keys = envelopeKeys, json.nestingDepth == 1 else { return false }
        let bit: UInt8
        if key.key.matches(keys.version) {
            bit = 1
            envelope.hasVersionKey = true
            envelope.version = try json.readNull() ? nil : json.readInteger(Int.self)
        } else if key.key.matches(keys.minReaderVersion) {
            bit = 2
            envelope.minReaderVersion = try json.readNull() ? nil : json.readInteger(Int.self)
        } else if key.key.matches(keys.revision) {
            bit = 4
            envelope.revision = try json.readNull() ? nil : json.readInteger(UInt64.self)
        } else if key.key.matches(keys.lineage) {
            bit = 8
            envelope.lineage = try json.readNull() ? nil : json.readString()
        } else if key.key.matches(keys.contentChecksum) {
            bit = 16
            try skipCheckingDuplicates()
        } else {
            return false
        }
        guard envelope.seen & bit == 0 else { throw refusal("duplicate key \"\(key.text)\"") }
        envelope.seen |= bit
        return true
    }

    /// Whether `key`, declared by the type being read, is an envelope key at the root: the `Codable` path reads
    /// such a key twice (for the envelope and for the model), which one pass cannot.
    func isEnvelopeKey(_ key: StateDirectKey) -> Bool {
        // The depth first: nearly every declared key is below the root, and the keys are five strings to copy.
        guard json.nestingDepth == 1, let keys = envelopeKeys else { return false }
        return key.key.matches(keys.version) || key.key.matches(keys.minReaderVersion)
            || key.key.matches(keys.revision) || key.key.matches(keys.lineage)
            || key.key.matches(keys.contentChecksum)
    }
}
