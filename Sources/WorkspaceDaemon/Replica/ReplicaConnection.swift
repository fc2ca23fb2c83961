import FoundationEssentials
import StateStore
import StateStoreS3
import Systemd

/// The replica target the `replica.*` settings name, with its credentials: a directory, or an S3 bucket signed for
/// with the systemd credentials `s3-access-key-id` and `s3-secret-access-key` (or the standard `AWS_*`
/// variables), sealed with the credential `replica-key` unless `replica.encryption` is `none`. What the daemon,
/// `workspaced restore` and `workspaced replica takeover` all connect through.
package struct ReplicaConnection: Sendable {
    /// The credential holding the access key id.
    package static let accessKeyCredential = "s3-access-key-id"
    /// The credential holding the secret access key.
    package static let secretKeyCredential = "s3-secret-access-key"
    /// The credential holding the encryption key.
    package static let keyCredential = "replica-key"

    /// The target, sealed when encryption is on.
    package let target: any ReplicaTarget
    /// The S3 target underneath, whose HTTP client ``close()`` shuts down.
    let s3: S3ReplicaTarget?

    /// Connects to the replica of `settings`.
    ///
    /// - Parameters:
    ///   - credentials: Where the systemd credentials are read.
    ///   - environment: Where `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN` are read when
    ///     the credentials lack the keys.
    /// - Throws: ``ConfigurationError`` naming the key a missing credential belongs to: the start exits 78.
    package static func open(
        _ settings: ReplicaSettings, credentials: Credentials = Credentials(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) -> ReplicaConnection {
        var target: any ReplicaTarget
        var s3: S3ReplicaTarget?
        switch settings.location {
        case .directory(let path):
            do {
                target = try DirectoryReplicaTarget(directory: path)
            } catch {
                throw .invalidValue(
                    key: ConfigurationKey.replicaURL.name, value: settings.location.description,
                    reason: "\(error)")
            }
        case .s3(let bucket, let prefix):
            let keys = try accessKeys(credentials: credentials, environment: environment)
            let connection = S3ReplicaTarget(
                configuration: S3ReplicaConfiguration(
                    bucket: bucket, prefix: prefix, region: settings.region, endpoint: settings.endpoint,
                    credentials: keys))
            s3 = connection
            target = connection
        }
        if settings.encryption == .aes256GCM {
            let bytes: [UInt8]
            do {
                bytes = try credentials.bytes(keyCredential)
            } catch {
                s3?.shutdown()
                throw .invalidValue(
                    key: ConfigurationKey.replicaEncryption.name, value: settings.encryption.rawValue,
                    reason: "needs the 32-byte key in the systemd credential \(keyCredential) "
                        + "(LoadCredential=\(keyCredential):/path), which is missing: \(error); "
                        + "replica.encryption = \"none\" stores plaintext")
            }
            guard let key = EncryptedReplicaTarget.key(fromCredential: Data(bytes)) else {
                s3?.shutdown()
                throw .invalidValue(
                    key: ConfigurationKey.replicaEncryption.name, value: settings.encryption.rawValue,
                    reason: "the credential \(keyCredential) is not a key: give 32 raw bytes, 64 hex digits or "
                        + "32 bytes in base64")
            }
            target = EncryptedReplicaTarget(target, key: key)
        }
        return ReplicaConnection(target: target, s3: s3)
    }

    /// The access keys: the credentials, else the environment.
    private static func accessKeys(
        credentials: Credentials, environment: [String: String]
    ) throws(ConfigurationError) -> SigV4Credentials {
        if let id = try? credentials.string(accessKeyCredential),
            let secret = try? credentials.string(secretKeyCredential),
            !id.isEmpty, !secret.isEmpty
        {
            return SigV4Credentials(
                accessKeyID: id, secretAccessKey: secret, sessionToken: environment["AWS_SESSION_TOKEN"])
        }
        if let id = environment["AWS_ACCESS_KEY_ID"], let secret = environment["AWS_SECRET_ACCESS_KEY"], !id.isEmpty,
            !secret.isEmpty
        {
            return SigV4Credentials(
                accessKeyID: id, secretAccessKey: secret, sessionToken: environment["AWS_SESSION_TOKEN"])
        }
        throw .invalidValue(
            key: ConfigurationKey.replicaURL.name, value: "s3://…",
            reason: "needs S3 access keys: the systemd credentials \(accessKeyCredential) and \(secretKeyCredential) "
                + "(LoadCredential=), or the variables AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
    }

    /// Shuts down the S3 client, if any.
    package func close() {
        s3?.shutdown()
    }
}
