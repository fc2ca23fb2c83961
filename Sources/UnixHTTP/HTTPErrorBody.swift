import FoundationEssentials

/// The JSON document of the server's own error responses, `{"error": {"code", "message", "field"}}` (400, 404, 405,
/// 413 and the refusals before a request is read). `field` is always present, `null` when no field is at fault.
/// The control API's contract writes the same document with its own type (`WorkspaceAPI.APIError`), so that a
/// client decodes every error response alike; a test checks that the two encode the same bytes.
public struct HTTPErrorBody: Codable, Sendable, Equatable, Error, CustomStringConvertible {
    /// A stable, machine-readable code such as `not_found`.
    public var code: String
    /// A sentence for people.
    public var message: String
    /// The request field at fault, if any.
    public var field: String?

    /// Creates an error body.
    public init(code: String, message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    private enum OuterKeys: String, CodingKey { case error }
    private enum InnerKeys: String, CodingKey { case code, message, field }

    /// Decodes `{"error": {...}}`.
    public init(from decoder: any Decoder) throws {
        let outer = try decoder.container(keyedBy: OuterKeys.self)
        let inner = try outer.nestedContainer(keyedBy: InnerKeys.self, forKey: .error)
        code = try inner.decode(String.self, forKey: .code)
        message = try inner.decode(String.self, forKey: .message)
        field = try inner.decodeIfPresent(String.self, forKey: .field)
    }

    /// Encodes `{"error": {...}}` with an explicit `"field": null`.
    public func encode(to encoder: any Encoder) throws {
        var outer = encoder.container(keyedBy: OuterKeys.self)
        var inner = outer.nestedContainer(keyedBy: InnerKeys.self, forKey: .error)
        try inner.encode(code, forKey: .code)
        try inner.encode(message, forKey: .message)
        if let field { try inner.encode(field, forKey: .field) } else { try inner.encodeNil(forKey: .field) }
    }

    /// The message, with the field at fault when there is one: `message (field: f)`.
    public var description: String { field.map { "\(message) (field: \($0))" } ?? message }

    /// The encoded document (keys sorted, so responses are byte-stable).
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding three strings cannot fail.
        return Array((try? encoder.encode(self)) ?? Data())
    }
}
