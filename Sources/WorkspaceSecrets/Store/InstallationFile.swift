import FoundationEssentials
import StateModel
import StateStore

/// `installation.json`: a plaintext copy of the installation record and the id of the key the store is sealed
/// under, written next to `secrets.json.enc`.
///
/// It makes the store hard to reset by deleting one file: with `installation.json` present and the store
/// missing, the daemon refuses to mint a new installation (token authentication is disabled and says why);
/// with the store readable and `installation.json` missing, it is written again.
///
/// It is a versioned StateStore file (``InstallationFileSchema``, version 1: the shape every release wrote, with
/// `"version": 1` at the root), read without a lock and written durably (mode 0644: nothing in it is secret).
/// Keys this release does not declare are kept.
@StateModel
public struct InstallationFile: Codable, Sendable, Equatable {
    /// The installation's id (read in any letter case, written in lower case).
    @StateCoder(LowercaseUUIDCoder.self) public var id: UUID
    /// When the daemon first started.
    public var firstStartedAt: Date
    /// The release that first started.
    public var firstRelease: String
    /// The id of the key the store is sealed under.
    public var keyId: String
    /// Keys this version does not declare.
    public var unknownFields: UnknownFields
}

extension InstallationFile {
    /// The file's name in the state directory.
    public static let fileName = "installation.json"

    /// The file for `record` sealed under `keyID`.
    public init(record: InstallationRecord, keyID: String) {
        self.init(
            id: record.id, firstStartedAt: record.firstStartedAt, firstRelease: record.firstRelease, keyId: keyID)
    }

    /// The installation record it copies (without unknown fields).
    public var record: InstallationRecord {
        InstallationRecord(id: id, firstStartedAt: firstStartedAt, firstRelease: firstRelease)
    }

    /// The id as it is written: lower case.
    public var idText: String { id.uuidString.lowercased() }
}
