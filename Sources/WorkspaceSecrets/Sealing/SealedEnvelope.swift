import FoundationEssentials
import StateJSON

/// What `secrets.json.enc` holds: a small JSON object naming the format, the cipher and the key, and the sealed
/// bytes. The first three are authenticated with the ciphertext, so none can be changed unnoticed.
///
/// `{"cipher":"AES-256-GCM","format":"workspaced-secrets","keyId":"<16 hex>","sealed":"<base64>"}`, where
/// `sealed` is the 12-byte nonce, the ciphertext and the 16-byte tag.
struct SealedEnvelope: Codable, Equatable {
    static let format = "workspaced-secrets"
    static let cipher = "AES-256-GCM"

    var format: String
    var cipher: String
    var keyId: String
    var sealed: String

    /// The authenticated data: format, cipher and key id, separated by NUL.
    ///
    /// Made from the bytes' buffer: `Data` made from a sequence looks up a conformance at its first use in a
    /// process, a scan of all of the binary's conformance records, which a profile of workspaced's start showed
    /// here, where the daemon opens its secret store.
    var authenticatedData: Data {
        Array((format + "\u{0}" + cipher + "\u{0}" + keyId).utf8).withUnsafeBytes { Data($0) }
    }

    /// The envelope in `stored`, or why it is not one.
    static func parse(_ stored: Data) throws(SecretsSealingError) -> SealedEnvelope {
        guard !stored.isEmpty else { throw .notAnEnvelope(reason: "the file is empty") }
        if let envelope = readDirectly(stored) { return envelope }
        do {
            return try JSONDecoder().decode(SealedEnvelope.self, from: stored)
        } catch DecodingError.keyNotFound(let key, _) {
            throw .notAnEnvelope(reason: "no \"\(key.stringValue)\"")
        } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
            throw .notAnEnvelope(reason: "\"\(context.codingPath[0].stringValue)\" is not a string")
        } catch {
            throw .notAnEnvelope(reason: "not a JSON object (truncated, or not written by workspaced)")
        }
    }

    /// The envelope read with StateJSON's pull reader when it is what workspaced writes: one object of the four
    /// members, each a string, each once, and nothing else; nil otherwise, and `JSONDecoder` then reads it or
    /// names what is wrong, as it always did. (A start opens the secret store beside the load and waits for it;
    /// `JSONDecoder`'s first use cost that path 0.66 million instructions, most of them conformance lookups.)
    static func readDirectly(_ stored: Data) -> SealedEnvelope? {
        stored.withUnsafeBytes { bytes -> SealedEnvelope? in
            var reader = JSONPullReader(bytes: bytes)
            var format: String?
            var cipher: String?
            var keyId: String?
            var sealed: String?
            do {
                try reader.beginObject()
                while let key = try reader.nextKey() {
                    guard try reader.peekKind() == .string else { return nil }
                    if key.matches("format") && format == nil {
                        format = try reader.readString()
                    } else if key.matches("cipher") && cipher == nil {
                        cipher = try reader.readString()
                    } else if key.matches("keyId") && keyId == nil {
                        keyId = try reader.readString()
                    } else if key.matches("sealed") && sealed == nil {
                        sealed = try reader.readString()
                    } else {
                        return nil
                    }
                }
                try reader.finish()
            } catch {
                return nil
            }
            guard let format, let cipher, let keyId, let sealed else { return nil }
            return SealedEnvelope(format: format, cipher: cipher, keyId: keyId, sealed: sealed)
        }
    }

    /// The stored bytes: sorted keys, one line.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// The key id in `stored`, when it is an envelope (read without any key, e.g. to say which key is needed).
    static func keyID(in stored: Data) -> String? {
        try? parse(stored).keyId
    }
}
