import StateCoding

extension WorkspaceID: StateDirectDecodable {
    /// Reads the UUID's text straight from a state file's bytes, as `init(from:)` reads it: in either letter
    /// case, a spelling that is not lower case kept for writing back.
    public init(stateReader reader: inout StateDirectReader) throws {
        let text = try reader.readString()
        guard let id = WorkspaceID(text) else { throw reader.refusal("\"\(text)\" is not a UUID") }
        self = id
    }
}
