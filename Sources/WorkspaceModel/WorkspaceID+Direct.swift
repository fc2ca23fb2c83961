import StateCoding

extension WorkspaceID: StateDirectDecodable {
    /// Reads the UUID's text straight from a state file's bytes, as `init(from:)` reads it: in either letter
    /// case, a spelling that is not lower case kept for writing back. The common lower-case id is parsed from the
    /// bytes in place, with no `String` made.
    public init(stateReader reader: inout StateDirectReader) throws {
        let id = try reader.readString { utf8 -> WorkspaceID? in
            guard let parsed = UUIDText.parse(utf8) else { return nil }
            return parsed.isLowerCase ? WorkspaceID(parsed.uuid) : WorkspaceID(String(decoding: utf8, as: UTF8.self))
        }
        guard let id else { throw reader.refusal("the text is not a UUID") }
        self = id
    }
}

extension WorkspaceID: StateDirectEncodable {
    /// Writes the id's text as `encode(to:)` does: in lower case, or in the spelling it was read with.
    public func write(stateWriter writer: inout StateDirectWriter) throws {
        writer.writeString(text)
    }
}
