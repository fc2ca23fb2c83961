import Foundation
import StateStore

// Version 1 of secrets.json.enc as it shipped: the installation record only, no tokens. Frozen: never edit these
// types; a later change gets a new version. Only read, never written, so they are Decodable only.

/// The root as version 1 wrote it.
struct SecretsV1: Decodable, Sendable {
    var installation: InstallationRecordV1
    var unknownFields: UnknownFields

    private enum CodingKeys: String, CodingKey { case installation }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        installation = try container.decode(InstallationRecordV1.self, forKey: .installation)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }
}

/// The installation record as version 1 wrote it.
struct InstallationRecordV1: Decodable, Sendable {
    var id: UUID
    var firstStartedAt: Date
    var firstRelease: String
    var unknownFields: UnknownFields

    private enum CodingKeys: String, CodingKey { case id, firstStartedAt, firstRelease }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeUUID(forKey: .id)
        firstStartedAt = try container.decode(Date.self, forKey: .firstStartedAt)
        firstRelease = try container.decode(String.self, forKey: .firstRelease)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }
}
