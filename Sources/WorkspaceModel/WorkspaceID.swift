import FoundationEssentials

/// The identifier of a project, pane, tab or favorite: a UUID, read in any letter case.
///
/// Two ids are equal (and hash alike) when they name the same UUID, whatever the letter case of their text, so
/// lookups and the duplicate-id repair are case-insensitive. The text is written back exactly as it was read:
/// loading and saving a file never rewrites an id. Ids made by this release are written in lower case.
///
/// An id of RFC 9562's variant read in lower case (every id this release writes) keeps only its 16 bytes and
/// spells its text again when asked; any other (an upper-case letter in its text, or another variant's UUID)
/// keeps its UUID and the text it was read with in an object of its own. An id is 16 bytes: its case is kept in
/// two bits the variant implies (``PackedUUID``), so that every project, pane, tab and favorite holds 8 bytes
/// less than with a reference beside the UUID (a workspace holds hundreds of thousands of ids).
public struct WorkspaceID: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The id's bytes: packed, or in an object.
    private let storage: Storage

    /// Where an id keeps its UUID and, when it has one, its spelling.
    private enum Storage: Sendable {
        /// A lower-case id of RFC 9562's variant.
        case packed(PackedUUID)
        /// Any other id.
        case spelled(Spelled)
    }

    /// The UUID and text of an id that is not the lower-case spelling of an RFC 9562 UUID.
    private final class Spelled: Sendable {
        let uuid: UUID
        /// The text as read; nil when it is the lower-case spelling of `uuid`.
        let text: String?

        init(_ uuid: UUID, text: String?) {
            self.uuid = uuid
            self.text = text
        }
    }

    /// A new random id.
    public init() {
        self.init(UUID())
    }

    /// The id of `uuid`, written in lower case.
    public init(_ uuid: UUID) {
        self.init(storage: PackedUUID(uuid).map { .packed($0) } ?? .spelled(Spelled(uuid, text: nil)))
    }

    /// The id kept in `storage`.
    private init(storage: Storage) {
        self.storage = storage
    }

    /// Parses a UUID string in any letter case (`8-4-4-4-12` hexadecimal digits); `nil` for anything else.
    public init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ UUIDText.parse($0) }) else { return nil }
        if parsed.isLowerCase {
            self.init(parsed.uuid)
        } else {
            self.init(storage: .spelled(Spelled(parsed.uuid, text: text)))
        }
    }

    /// The UUID the id names.
    public var uuid: UUID {
        switch storage {
        case .packed(let packed): packed.uuid
        case .spelled(let spelled): spelled.uuid
        }
    }

    /// The UUID's 16 bytes as one number: equal numbers, equal ids.
    var number: UInt128 {
        switch storage {
        case .packed(let packed): packed.number
        case .spelled(let spelled): PackedUUID.number(of: spelled.uuid)
        }
    }

    /// The id as read from the file, or lower case for an id made by this release; written back unchanged.
    public var text: String {
        switch storage {
        case .packed(let packed): UUIDText.lowerCase(packed.uuid)
        case .spelled(let spelled): spelled.text ?? UUIDText.lowerCase(spelled.uuid)
        }
    }

    /// Whether both ids name the same UUID, whatever the letter case of their text.
    public static func == (lhs: WorkspaceID, rhs: WorkspaceID) -> Bool {
        lhs.number == rhs.number
    }

    /// Hashes the UUID's 16 bytes, so ids that differ only in letter case hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(number)
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
