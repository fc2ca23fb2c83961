import Crypto
import FoundationEssentials

/// The 256-bit key that seals `secrets.json.enc`, with its id (16 hex digits derived from the key, safe to show and
/// log: it names the key without revealing it).
public struct SecretsKey: Sendable, Equatable {
    /// The key's length in bytes.
    public static let byteCount = 32

    let bytes: [UInt8]
    /// 16 lower-case hex digits: the first 8 bytes of SHA-256 over a fixed label and the key.
    public let id: String

    /// A key from exactly 32 raw bytes.
    ///
    /// - Parameter source: Where the bytes came from, for the error.
    /// - Throws: ``SecretsKeyError/wrongLength(source:byteCount:)``.
    public init(bytes: [UInt8], source: String = "the key") throws(SecretsKeyError) {
        guard bytes.count == Self.byteCount else { throw .wrongLength(source: source, byteCount: bytes.count) }
        self.bytes = bytes
        var hasher = SHA256()
        hasher.update(data: Array("workspaced secrets key id\u{0}".utf8))
        hasher.update(data: bytes)
        self.id = Hex.encode(Array(hasher.finalize()).prefix(8))
    }

    /// A key from a credential or key file: exactly 32 raw bytes, or base64 text of 32 bytes (surrounding whitespace
    /// ignored).
    ///
    /// - Parameter source: Where the bytes came from (`credential secrets-key`, a path), for the error.
    /// - Throws: ``SecretsKeyError`` saying what is wrong with them.
    public static func parse(_ contents: [UInt8], source: String) throws(SecretsKeyError) -> SecretsKey {
        if contents.count == byteCount { return try SecretsKey(bytes: contents, source: source) }
        // Trimmed by Character rather than with Foundation's `trimmingCharacters(in:)`, whose bridging through
        // NSString costs a daemon's start about 0.3 ms the first time.
        var trimmed = Substring(String(decoding: contents, as: UTF8.self))
        while trimmed.first?.isWhitespace == true { trimmed.removeFirst() }
        while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
        let text = String(trimmed)
        guard !text.isEmpty else { throw .empty(source: source) }
        guard let decoded = Data(base64Encoded: text) else {
            throw .notBase64(source: source, byteCount: contents.count)
        }
        return try SecretsKey(bytes: Array(decoded), source: source + " (base64)")
    }

    /// A new random key (from the system's cryptographic random source).
    public static func generate() -> SecretsKey {
        let key = SymmetricKey(size: .bits256)
        let bytes = key.withUnsafeBytes { Array($0) }
        return try! SecretsKey(bytes: bytes)
    }

    /// The key as a key file holds it: base64 and a newline.
    public var fileContents: Data { Data((Data(bytes).base64EncodedString() + "\n").utf8) }

    var symmetricKey: SymmetricKey { SymmetricKey(data: bytes) }

    /// Compares the ids only (the bytes in constant time would add nothing: the id is derived from them).
    public static func == (lhs: SecretsKey, rhs: SecretsKey) -> Bool { lhs.id == rhs.id }
}
