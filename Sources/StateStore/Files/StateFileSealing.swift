import FoundationEssentials

/// A layer between the bytes a ``StateCodec`` reads and writes and the bytes on disk: authenticated encryption,
/// for example, so that a state file can hold secrets.
///
/// ``StateFile`` opens what it reads before decoding and seals what it encodes before writing; migrations, the
/// load report, durable replace, backups and locking work as for a plain file. A file that cannot be opened (a
/// wrong or missing key, tampered bytes) is never quarantined or written over, whatever the corrupt-file
/// policy: ``StateFile/load()`` throws ``StateStoreError/unsealFailed(path:reason:)`` and refuses writes.
public protocol StateFileSealing: Sendable {
    /// The codec's bytes from the stored bytes.
    ///
    /// - Throws: Any error; its description becomes the reason in
    ///   ``StateStoreError/unsealFailed(path:reason:)``, so it should say why (wrong key, tampered, truncated).
    func open(_ stored: Data) throws -> Data
    /// The bytes to store for the codec's bytes.
    func seal(_ plaintext: Data) throws -> Data
}
