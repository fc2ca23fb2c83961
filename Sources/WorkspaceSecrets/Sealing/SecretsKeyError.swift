/// Why bytes given as the secrets key are not one.
public enum SecretsKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key is not 32 bytes long.
    case wrongLength(source: String, byteCount: Int)
    /// The text is not base64 (and the contents are not 32 raw bytes either).
    case notBase64(source: String, byteCount: Int)
    /// The credential or file is empty.
    case empty(source: String)

    /// A sentence naming the source and what a key must look like.
    public var description: String {
        let expected =
            "a key is exactly 32 raw bytes or base64 text of 32 bytes (make one with `head -c 32 /dev/urandom | base64`)"
        switch self {
        case .wrongLength(let source, let count):
            return "\(source) is \(count) bytes, not 32: \(expected)"
        case .notBase64(let source, let count):
            return "\(source) (\(count) bytes) is neither 32 raw bytes nor base64 text: \(expected)"
        case .empty(let source):
            return "\(source) is empty: \(expected)"
        }
    }
}
