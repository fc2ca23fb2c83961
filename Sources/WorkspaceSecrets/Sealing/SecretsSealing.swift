import Crypto
import FoundationEssentials
import StateStore

/// Seals a ``StateStore/StateFile``'s bytes with AES-256-GCM under a ``SecretsKey``: what is stored is a
/// ``SealedEnvelope`` whose format, cipher and key id are authenticated with the ciphertext.
///
/// ```swift
/// let file = StateFile(path: dir + "/secrets.json.enc", schema: try SecretsSchema.make(),
///                      configuration: StateFileConfiguration(corruptFilePolicy: .refuse),
///                      sealing: SecretsSealing(key: key))
/// ```
///
/// Opening fails with a ``SecretsSealingError`` saying which check failed; ``StateStore/StateFile`` then refuses
/// the file (``StateStore/StateStoreError/unsealFailed(path:reason:)``) and never writes over it.
public struct SecretsSealing: StateFileSealing {
    /// The key files are sealed under and opened with.
    public let key: SecretsKey

    /// Sealing under `key`.
    public init(key: SecretsKey) {
        self.key = key
    }

    /// The JSON inside `stored`.
    ///
    /// - Throws: ``SecretsSealingError``.
    public func open(_ stored: Data) throws -> Data {
        try openEnvelope(stored)
    }

    /// The envelope for `plaintext`, with a fresh random nonce.
    public func seal(_ plaintext: Data) throws -> Data {
        let envelope = SealedEnvelope(
            format: SealedEnvelope.format, cipher: SealedEnvelope.cipher, keyId: key.id, sealed: "")
        let box = try AES.GCM.seal(
            plaintext, using: key.symmetricKey, nonce: AES.GCM.Nonce(), authenticating: envelope.authenticatedData)
        guard let combined = box.combined else { throw SecretsSealingError.malformedCiphertext(reason: "no nonce") }
        var sealed = envelope
        sealed.sealed = combined.base64EncodedString()
        return try sealed.encoded()
    }

    /// ``open(_:)`` with its typed error.
    func openEnvelope(_ stored: Data) throws(SecretsSealingError) -> Data {
        let envelope = try SealedEnvelope.parse(stored)
        guard envelope.format == SealedEnvelope.format else { throw .unknownFormat(envelope.format) }
        guard envelope.cipher == SealedEnvelope.cipher else { throw .unknownCipher(envelope.cipher) }
        guard envelope.keyId == key.id else { throw .wrongKey(fileKeyID: envelope.keyId, keyID: key.id) }
        guard let combined = Data(base64Encoded: envelope.sealed) else {
            throw .malformedCiphertext(reason: "not base64")
        }
        // 12-byte nonce + 16-byte tag; the ciphertext may be empty only in theory.
        guard combined.count >= 28 else {
            throw .malformedCiphertext(reason: "\(combined.count) bytes, shorter than a nonce and a tag")
        }
        do {
            let box = try AES.GCM.SealedBox(combined: combined)
            return try AES.GCM.open(box, using: key.symmetricKey, authenticating: envelope.authenticatedData)
        } catch {
            throw .tampered
        }
    }

    /// The id of the key `stored` is sealed under, when it is an envelope; no key needed.
    public static func keyID(of stored: Data) -> String? {
        SealedEnvelope.keyID(in: stored)
    }
}
