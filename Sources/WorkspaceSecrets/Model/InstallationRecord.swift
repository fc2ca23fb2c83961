import Foundation
import StateStore

/// Which installation this is: an id minted at the first start, when that was, and which release did it.
///
/// Written once, never changed: it survives a reinstall (binaries, units and configuration removed, the state
/// directory kept) because it lives in the secret store and in `installation.json` next to it.
public struct InstallationRecord: Codable, Sendable, Equatable {
    /// The installation's id.
    public var id: UUID
    /// When the daemon first started (whole seconds).
    public var firstStartedAt: Date
    /// The release that first started (`ControlAPI.daemonVersion` of that release).
    public var firstRelease: String
    /// Keys this version does not declare.
    public var unknownFields: UnknownFields

    /// A record with the given fields.
    public init(id: UUID, firstStartedAt: Date, firstRelease: String, unknownFields: UnknownFields = UnknownFields()) {
        self.id = id
        self.firstStartedAt = firstStartedAt
        self.firstRelease = firstRelease
        self.unknownFields = unknownFields
    }

    /// A new installation: a random id, `now` cut to whole seconds, and `release`.
    public static func new(release: String, now: Date = Date()) -> InstallationRecord {
        InstallationRecord(
            id: UUID(), firstStartedAt: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)),
            firstRelease: release)
    }

    private enum CodingKeys: String, CodingKey { case id, firstStartedAt, firstRelease }

    /// Decodes the declared keys (the id in any letter case) and keeps the rest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeUUID(forKey: .id)
        firstStartedAt = try container.decode(Date.self, forKey: .firstStartedAt)
        firstRelease = try container.decode(String.self, forKey: .firstRelease)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }

    /// Encodes the kept keys, then the declared ones; the id in lower case.
    public func encode(to encoder: any Encoder) throws {
        try unknownFields.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.uuidString.lowercased(), forKey: .id)
        try container.encode(firstStartedAt, forKey: .firstStartedAt)
        try container.encode(firstRelease, forKey: .firstRelease)
    }
}

extension KeyedDecodingContainer {
    /// A UUID stored as text in any letter case.
    func decodeUUID(forKey key: Key) throws -> UUID {
        let text = try decode(String.self, forKey: key)
        guard let id = UUID(uuidString: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\"\(text)\" is not a UUID")
        }
        return id
    }
}
