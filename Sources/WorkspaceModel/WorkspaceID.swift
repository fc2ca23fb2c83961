import Foundation

/// The identifier of a project, pane, tab or favorite: a UUID, read in any letter case.
///
/// Two ids are equal (and hash alike) when they name the same UUID, whatever the letter case of their text, so
/// lookups and the duplicate-id repair are case-insensitive. The text is written back exactly as it was read:
/// loading and saving a file never rewrites an id. Ids made by this release are written in lower case.
public struct WorkspaceID: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The UUID the id names.
    public let uuid: UUID
    /// The id as read from the file, or lower case for an id made by this release; written back unchanged.
    public let text: String

    /// A new random id.
    public init() {
        self.init(UUID())
    }

    /// The id of `uuid`, written in lower case.
    public init(_ uuid: UUID) {
        self.uuid = uuid
        self.text = uuid.uuidString.lowercased()
    }

    /// Parses a UUID string in any letter case (`8-4-4-4-12` hexadecimal digits); `nil` for anything else.
    public init?(_ text: String) {
        guard let uuid = UUID(uuidString: text) else { return nil }
        self.uuid = uuid
        self.text = text
    }

    /// Whether both ids name the same UUID, whatever the letter case of their text.
    public static func == (lhs: WorkspaceID, rhs: WorkspaceID) -> Bool {
        lhs.uuid == rhs.uuid
    }

    /// Hashes the UUID, so ids that differ only in letter case hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(uuid)
    }

    /// The id's text.
    public var description: String { text }

    /// Decodes a UUID string in any letter case; anything else is a decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = WorkspaceID(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(text)\" is not a UUID")
        }
        self = id
    }

    /// Encodes the text as read.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
