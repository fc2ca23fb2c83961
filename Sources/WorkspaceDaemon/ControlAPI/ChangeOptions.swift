import UnixHTTP
import WorkspaceAPI

/// The options every change takes: durability and the expected revision.
enum ChangeOptions {
    /// The header that asks for a durable acknowledgement, like `?durable=true`.
    static let durableHeader = "Workspaced-Durable"

    /// Whether the request asks to be answered only once its change is durable.
    static func durable(_ request: HTTPRequest) throws(APIFailure) -> Bool {
        let query = try flag(request.query("durable"), name: "durable")
        let header = try flag(request.headers.first(name: durableHeader), name: durableHeader)
        return query || header
    }

    /// The entity tags `If-Match` lists (`"9f2c4e1a7b3d5e60.12"`, also unquoted or `W/`-prefixed, several
    /// separated by commas), or `nil` for none or `*`.
    ///
    /// A bare revision number (`"12"`) names no state since revisions belong to a lineage: it is kept as a tag
    /// that matches nothing, so the change is refused with 412, never applied to a state the client did not see.
    static func expectedTags(_ request: HTTPRequest) throws(APIFailure) -> [IfMatchTag]? {
        let values = request.headers[canonicalForm: "If-Match"].map { $0.trimmingCharacters(in: .whitespaces) }
        guard !values.isEmpty else { return nil }
        if values == ["*"] { return nil }
        var tags: [IfMatchTag] = []
        for value in values where !value.isEmpty {
            if let tag = WorkspaceETag(value) {
                tags.append(.tag(tag))
            } else if let revision = UInt64(Self.opaque(value)) {
                tags.append(.bareRevision(revision))
            } else {
                throw APIFailure(
                    .badRequest, APIErrorCode.invalidParameter,
                    "If-Match must be an ETag such as \"9f2c4e1a7b3d5e60.12\" (from GET /v1/workspace or a change)",
                    field: "If-Match")
            }
        }
        return tags
    }

    /// The tag without `W/` and quotes.
    private static func opaque(_ value: String) -> Substring {
        var text = Substring(value)
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = text.dropFirst().dropLast() }
        return text
    }

    private static func flag(_ value: String?, name: String) throws(APIFailure) -> Bool {
        guard let value else { return false }
        switch value.lowercased() {
        case "true", "1", "yes", "": return true
        case "false", "0", "no": return false
        default:
            throw APIFailure(.badRequest, APIErrorCode.invalidParameter, "\(name) must be true or false", field: name)
        }
    }
}
