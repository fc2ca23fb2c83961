/// The entity tag of one state of the workspace: the state's lineage and its revision, `9f2c4e1a7b3d5e60.42`
/// (sent quoted, as `ETag: "9f2c4e1a7b3d5e60.42"`).
///
/// A lineage is one unbroken history of the state; it changes whenever the history is broken instead of
/// continued (a restore, a quarantine, a salvage, an import, a crash that may have lost changes), and revisions
/// keep counting across restarts. So an entity tag names one state forever: `If-Match` with it succeeds only
/// while the workspace is still exactly that state, and `GET /v1/events?since=` resumes from it.
public struct WorkspaceETag: Hashable, Sendable, LosslessStringConvertible {
    /// The lineage: 1 to 64 characters from `[0-9A-Za-z_-]`.
    public var lineage: String
    /// The revision within the lineage.
    public var revision: UInt64

    /// The tag of `revision` in `lineage`.
    public init(lineage: String, revision: UInt64) {
        self.lineage = lineage
        self.revision = revision
    }

    /// Parses `lineage.revision`, also quoted (`"…"`) or weak (`W/"…"`) as in a header; `nil` for anything else,
    /// a bare revision number included.
    public init?(_ description: String) {
        var text = Substring(description.trimmingWhitespace())
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = text.dropFirst().dropLast() }
        guard let dot = text.lastIndex(of: "."), let revision = UInt64(text[text.index(after: dot)...]) else {
            return nil
        }
        let lineage = text[..<dot]
        guard !lineage.isEmpty, lineage.utf8.count <= 64, lineage.utf8.allSatisfy(Self.isLineageByte) else {
            return nil
        }
        self.lineage = String(lineage)
        self.revision = revision
    }

    /// `lineage.revision`.
    public var description: String { "\(lineage).\(revision)" }

    /// The header value: `"lineage.revision"`.
    public var quoted: String { "\"\(description)\"" }

    /// The characters StateStore's `Lineage` allows; the rule is repeated here so that the contract imports no
    /// engine.
    private static func isLineageByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}

extension WorkspaceETag: Codable {
    /// Decodes the unquoted form, `lineage.revision`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let tag = WorkspaceETag(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not an entity tag such as 9f2c4e1a7b3d5e60.42")
        }
        self = tag
    }

    /// Encodes the unquoted form, `lineage.revision`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        let bytes = utf8.drop(while: { $0 == 0x20 || $0 == 0x09 }).reversed().drop(while: { $0 == 0x20 || $0 == 0x09 })
        return String(decoding: bytes.reversed(), as: UTF8.self)
    }
}
