import FoundationEssentials
import StateModel
import StateStore

// Version 1 of secrets.json.enc as it shipped: the installation record only, no tokens. Frozen: never edit these
// types; a later change gets a new version. Only read, never written, so they are Decodable only.

/// The root as version 1 wrote it.
@StateModel
struct SecretsV1: Decodable, Sendable {
    var installation: InstallationRecordV1
    var unknownFields: UnknownFields
}

/// The installation record as version 1 wrote it.
@StateModel
struct InstallationRecordV1: Decodable, Sendable {
    @StateCoder(LowercaseUUIDCoder.self) var id: UUID
    var firstStartedAt: Date
    var firstRelease: String
    var unknownFields: UnknownFields
}
