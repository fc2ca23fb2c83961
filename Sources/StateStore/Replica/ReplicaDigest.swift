import FoundationEssentials

/// How a replicator and a restore compute the SHA-256 that names and checks a replica's objects.
///
/// ``builtIn`` is StateStore's own implementation, so that a program using StateStore alone links no cryptography
/// library; `StateStoreS3` offers `ReplicaDigest.crypto`, swift-crypto's (BoringSSL, with the processor's SHA
/// instructions where it has them), which a restore of tens of megabytes wants. Both give the same digests.
public struct ReplicaDigest: Sendable {
    /// The lower-case hex SHA-256 of some bytes.
    public let sha256Hex: @Sendable (Data) -> String

    /// A digest computed by `sha256Hex`, which must return the lower-case hex SHA-256 of its bytes.
    public init(sha256Hex: @escaping @Sendable (Data) -> String) {
        self.sha256Hex = sha256Hex
    }

    /// StateStore's own SHA-256.
    public static let builtIn = ReplicaDigest { SHA256Digest.hex($0) }
}
