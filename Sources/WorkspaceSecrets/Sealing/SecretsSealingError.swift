/// Why `secrets.json.enc` could not be opened. The file is never changed because of one of these.
public enum SecretsSealingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not the envelope (empty, truncated, not JSON, a field missing).
    case notAnEnvelope(reason: String)
    /// The envelope names a format this release does not know.
    case unknownFormat(String)
    /// The envelope names a cipher this release does not know.
    case unknownCipher(String)
    /// The file was sealed under another key.
    case wrongKey(fileKeyID: String, keyID: String)
    /// The sealed data is not base64 or too short to hold a nonce and a tag.
    case malformedCiphertext(reason: String)
    /// Authentication failed: the ciphertext, the nonce, the tag or the authenticated fields were changed.
    case tampered

    /// A sentence saying which.
    public var description: String {
        switch self {
        case .notAnEnvelope(let reason):
            return "not a workspaced secrets file: \(reason)"
        case .unknownFormat(let format):
            return "unknown format \"\(format)\" (this release reads \"\(SealedEnvelope.format)\")"
        case .unknownCipher(let cipher):
            return "unknown cipher \"\(cipher)\" (this release reads \"\(SealedEnvelope.cipher)\")"
        case .wrongKey(let fileKeyID, let keyID):
            return "wrong key: the file is sealed under key \(fileKeyID), the key given is \(keyID)"
        case .malformedCiphertext(let reason):
            return "the sealed data is damaged: \(reason)"
        case .tampered:
            return "authentication failed: the file was changed or damaged after it was sealed"
        }
    }
}
