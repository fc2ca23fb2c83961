import Crypto
import FoundationEssentials
import StateStore

extension ReplicaDigest {
    /// swift-crypto's SHA-256 (BoringSSL, with the processor's SHA instructions where it has them): what a
    /// replicator and a restore of tens of megabytes want. The same digests as ``ReplicaDigest/builtIn``.
    public static let crypto = ReplicaDigest { bytes in
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
