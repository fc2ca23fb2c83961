import Crypto
import FoundationEssentials
import StateStore

/// Client-side encryption of a replica: every object but the lease is sealed with AES-256-GCM before it reaches
/// `inner`, and opened when read, so the store holds no byte of the state in the clear. A new host holding the same
/// key restores; without it, a read fails with an error that says so.
///
/// An object is `WSRE`, a format byte (1), then the sealed box (12-byte nonce, ciphertext, 16-byte tag), the
/// object's name as authenticated data: an object copied under another name does not open. Names are unchanged
/// (they carry the plaintext's SHA-256, which a restore checks after opening). The lease stays readable, so that
/// `held by` can be said to a host whose key is wrong.
public struct EncryptedReplicaTarget: ReplicaTarget {
    /// The target that stores the sealed objects.
    public let inner: any ReplicaTarget
    private let key: SymmetricKey

    private static let magic = Data("WSRE".utf8) + Data([1])

    /// `inner` with its objects sealed by `key` (32 bytes).
    public init(_ inner: any ReplicaTarget, key: SymmetricKey) {
        self.inner = inner
        self.key = key
    }

    /// The key a credential file holds: 32 raw bytes, 64 hexadecimal digits, or 32 bytes in base64 (a trailing
    /// newline ignored); `nil` for anything else.
    public static func key(fromCredential data: Data) -> SymmetricKey? {
        if data.count == 32 { return SymmetricKey(data: data) }
        let text = String(decoding: data, as: UTF8.self).trimmingWhiteSpace()
        if text.utf8.count == 64, text.utf8.allSatisfy({ $0 < 0x80 && Character(UnicodeScalar($0)).isHexDigit }) {
            var bytes = Data()
            var index = text.startIndex
            while index < text.endIndex {
                let next = text.index(index, offsetBy: 2)
                bytes.append(UInt8(text[index..<next], radix: 16)!)
                index = next
            }
            return SymmetricKey(data: bytes)
        }
        if let decoded = Data(base64Encoded: text), decoded.count == 32 { return SymmetricKey(data: decoded) }
        return nil
    }

    /// Seals and creates; an existing object is compared by its opened bytes (each sealing has its own nonce).
    public func create(_ name: ReplicaObjectName, bytes: Data) throws(ReplicaError) -> ReplicaCreation {
        guard !isPlain(name) else { return try inner.create(name, bytes: bytes) }
        let outcome = try inner.create(name, bytes: try seal(bytes, name: name, operation: "create"))
        guard outcome == .existedWithOtherBytes else { return outcome }
        return try read(name)?.bytes == bytes ? .existedWithTheSameBytes : .existedWithOtherBytes
    }

    /// Reads and opens.
    public func read(_ name: ReplicaObjectName) throws(ReplicaError) -> (bytes: Data, version: ReplicaObjectVersion)? {
        guard let found = try inner.read(name) else { return nil }
        guard !isPlain(name) else { return found }
        return (try open(found.bytes, name: name), found.version)
    }

    /// Lists `inner`'s objects (their sizes are the sealed ones).
    public func list(prefix: String) throws(ReplicaError) -> [ReplicaObject] {
        try inner.list(prefix: prefix)
    }

    /// Seals and replaces.
    public func replace(
        _ name: ReplicaObjectName, bytes: Data, ifVersion expected: ReplicaObjectVersion?
    ) throws(ReplicaError) -> ReplicaObjectVersion? {
        let stored = isPlain(name) ? bytes : try seal(bytes, name: name, operation: "replace")
        return try inner.replace(name, bytes: stored, ifVersion: expected)
    }

    /// Removes from `inner`.
    public func remove(_ name: ReplicaObjectName) throws(ReplicaError) {
        try inner.remove(name)
    }

    private func isPlain(_ name: ReplicaObjectName) -> Bool { name.rawValue == "lease.json" }

    private func seal(_ bytes: Data, name: ReplicaObjectName, operation: String) throws(ReplicaError) -> Data {
        do {
            let box = try AES.GCM.seal(bytes, using: key, authenticating: Data(name.rawValue.utf8))
            guard let combined = box.combined else {
                throw ReplicaError(operation: "\(operation) \(name)", reason: "AES-GCM gave no combined box")
            }
            return Self.magic + combined
        } catch let error as ReplicaError {
            throw error
        } catch {
            throw ReplicaError(operation: "\(operation) \(name)", reason: "cannot encrypt: \(error)")
        }
    }

    private func open(_ stored: Data, name: ReplicaObjectName) throws(ReplicaError) -> Data {
        guard stored.starts(with: Self.magic) else {
            throw ReplicaError(
                operation: "read \(name)",
                reason: "it is not encrypted (the replica was written with replica.encryption = \"none\"?)")
        }
        do {
            let box = try AES.GCM.SealedBox(combined: stored.dropFirst(Self.magic.count))
            return try AES.GCM.open(box, using: key, authenticating: Data(name.rawValue.utf8))
        } catch {
            throw ReplicaError(
                operation: "read \(name)",
                reason: "it does not open with this replica-key (another key, or damaged bytes): \(error)")
        }
    }
}
