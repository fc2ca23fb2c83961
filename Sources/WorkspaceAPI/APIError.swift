import FoundationEssentials

/// One refusal of the control API: a stable machine-readable code (``APIErrorCode``), a sentence, and the request
/// field at fault when there is one. On the wire `{"error": {"code", "message", "field"}}`, `field` always present
/// (`null` when no field is at fault): the same document the transport (UnixHTTP) writes for the refusals it makes
/// before a route runs, so a client decodes every error response of the daemon as this type.
public struct APIError: Codable, Sendable, Equatable, Error, CustomStringConvertible {
    /// A stable, machine-readable code such as `not_found` (``APIErrorCode``).
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

    /// The encoded document, with ``APICoding``'s conventions (keys sorted, so responses are byte-stable).
    public func encoded() -> [UInt8] {
        // Encoding three strings cannot fail.
        Array((try? APICoding.encoder.encode(self)) ?? Data())
    }
}
