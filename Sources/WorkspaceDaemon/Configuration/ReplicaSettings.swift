import FoundationEssentials
import StateStoreS3

/// How the daemon replicates its history off the host: the `replica.*` keys, resolved. `nil` in
/// ``DaemonConfiguration/replica`` when `replica.url` is empty.
package struct ReplicaSettings: Sendable, Equatable {
    /// Where the replica is.
    package enum Location: Sendable, Equatable, CustomStringConvertible {
        /// A bucket and a prefix (empty, or ending with `/`) of an S3-compatible store.
        case s3(bucket: String, prefix: String)
        /// A directory (a mounted volume).
        case directory(String)

        /// The URL it was given as.
        package var description: String {
            switch self {
            case .s3(let bucket, let prefix): "s3://\(bucket)/\(prefix)"
            case .directory(let path): "file://\(path)"
            }
        }
    }

    /// How the replica's objects are sealed.
    package enum Encryption: String, Sendable, Equatable {
        /// AES-256-GCM with the key of the credential `replica-key`.
        case aes256GCM = "aes-256-gcm"
        /// Plaintext: configured explicitly, and warned about at every start.
        case none
    }

    /// `replica.url`, parsed.
    package var location: Location
    /// `replica.endpoint`; `nil` for AWS's endpoint of ``region``.
    package var endpoint: URL?
    /// `replica.region`.
    package var region: String
    /// `replica.syncIntervalMilliseconds`.
    package var syncInterval: Duration
    /// `replica.durableAcknowledgement`.
    package var durableAcknowledgement: Bool
    /// `replica.encryption`.
    package var encryption: Encryption
    /// `replica.restoreIfMissing`.
    package var restoreIfMissing: Bool
    /// `replica.localMaximumBytes`: the history keeps what the replica lacks up to this size.
    package var localMaximumBytes: Int

    /// Settings with the given values.
    package init(
        location: Location, endpoint: URL? = nil, region: String = ConfigurationKey.replicaRegion.textDefault,
        syncInterval: Duration = .milliseconds(ConfigurationKey.replicaSyncInterval.integerDefault),
        durableAcknowledgement: Bool = false, encryption: Encryption = .aes256GCM, restoreIfMissing: Bool = false,
        localMaximumBytes: Int = ConfigurationKey.replicaLocalMaximumBytes.integerDefault
    ) {
        self.localMaximumBytes = localMaximumBytes
        self.location = location
        self.endpoint = endpoint
        self.region = region
        self.syncInterval = syncInterval
        self.durableAcknowledgement = durableAcknowledgement
        self.encryption = encryption
        self.restoreIfMissing = restoreIfMissing
    }

    /// The location of a `replica.url` value; `nil` when it is neither an `s3://` URL with a valid bucket and
    /// prefix (``StateStoreS3/S3ReplicaConfiguration/location(of:)`` decides) nor a `file://` URL of an absolute
    /// path.
    package static func location(of url: String) -> Location? {
        if url.hasPrefix("file://") {
            let path = String(url.dropFirst("file://".count))
            guard path.hasPrefix("/"), path.count > 1, !path.contains("\0") else { return nil }
            return .directory(path.hasSuffix("/") ? String(path.dropLast()) : path)
        }
        guard let (bucket, prefix) = S3ReplicaConfiguration.location(of: url) else { return nil }
        return .s3(bucket: bucket, prefix: prefix)
    }
}
