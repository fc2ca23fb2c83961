import UnixHTTP
import WorkspaceClient

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

    /// The revision named by `If-Match` (`"12"`, `12` or `W/"12"`), or `nil` for none or `*`.
    static func expectedRevision(_ request: HTTPRequest) throws(APIFailure) -> UInt64? {
        guard var text = request.headers.first(name: "If-Match")?.trimmingCharacters(in: .whitespaces) else {
            return nil
        }
        if text == "*" { return nil }
        if text.hasPrefix("W/") { text.removeFirst(2) }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
        guard let revision = UInt64(text) else {
            throw APIFailure(
                .badRequest, APIErrorCode.invalidParameter, "If-Match must be a revision number", field: "If-Match")
        }
        return revision
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
