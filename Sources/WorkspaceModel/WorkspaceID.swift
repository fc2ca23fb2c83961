import FoundationEssentials

/// The identifier of a project, pane, tab or favorite: a UUID, read in any letter case.
///
/// Two ids are equal (and hash alike) when they name the same UUID, whatever the letter case of their text, so
/// lookups and the duplicate-id repair are case-insensitive. The text is written back exactly as it was read:
/// loading and saving a file never rewrites an id. Ids made by this release are written in lower case.
///
/// An id read in lower case (every id this release writes) keeps only its 16 bytes and spells its text again
/// when asked; only an id read with an upper-case letter keeps the text it was read with, in an object of its
/// own. An id is 24 bytes: the UUID and one reference, so that every project, pane, tab and favorite holds 8
/// bytes less than with an optional `String` beside the UUID (a workspace holds hundreds of thousands of ids).
public struct WorkspaceID: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The UUID the id names.
    public let uuid: UUID
    /// The text as read, when it is not the lower-case spelling of `uuid`.
    private let spelling: Spelling?

    /// The text of an id not read in lower case: a reference (8 bytes) where a `String` takes 16.
    private final class Spelling: Sendable {
        let text: String

        init(_ text: String) { self.text = text }
    }

    /// A new random id.
    public init() {
        self.init(UUID())
    }

    /// The id of `uuid`, written in lower case.
    public init(_ uuid: UUID) {
        self.uuid = uuid
        self.spelling = nil
    }

    /// Parses a UUID string in any letter case (`8-4-4-4-12` hexadecimal digits); `nil` for anything else.
    public init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ UUIDText.parse($0) }) else { return nil }
        self.uuid = parsed.uuid
        self.spelling = parsed.isLowerCase ? nil : Spelling(text)
    }

    /// The id as read from the file, or lower case for an id made by this release; written back unchanged.
    public var text: String { spelling?.text ?? UUIDText.lowerCase(uuid) }

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
