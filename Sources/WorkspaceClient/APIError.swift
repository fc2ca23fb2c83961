/// The body of every refusal the control API sends: `{"error": {"code", "message", "field"}}`.
public struct APIErrorResponse: Codable, Sendable, Equatable, Error, CustomStringConvertible {
    /// What went wrong.
    public var error: APIError

    /// A response carrying `error`.
    public init(_ error: APIError) {
        self.error = error
    }

    /// The error's message, with its field when there is one.
    public var description: String { error.description }
}

/// One refusal: a stable machine-readable code, a sentence, and the request field at fault when there is one.
public struct APIError: Codable, Sendable, Equatable, CustomStringConvertible {
    /// A stable code (see ``APIErrorCode``).
    public var code: String
    /// A sentence for people.
    public var message: String
    /// The request field at fault (`name`, `layout`, `id`, …), or `nil`.
    public var field: String?

    /// An error with the given parts.
    public init(code: String, message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    private enum CodingKeys: String, CodingKey { case code, message, field }

    /// Encodes `field` as `null` when absent, so the shape is always the same.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(message, forKey: .message)
        try container.encode(field, forKey: .field)
    }

    /// `message (field: f)`.
    public var description: String { field.map { "\(message) (field: \($0))" } ?? message }
}

/// The error codes of the control API.
public enum APIErrorCode {
    /// The body is not valid JSON, not UTF-8, or not an object.
    public static let invalidJSON = "invalid_json"
    /// A field is missing, has the wrong type, or breaks a rule (length, characters, path, enum value).
    public static let invalidField = "invalid_field"
    /// The body has a field the operation does not take.
    public static let unknownField = "unknown_field"
    /// An id names nothing.
    public static let notFound = "not_found"
    /// A query parameter or header is malformed.
    public static let invalidParameter = "invalid_parameter"
    /// `If-Match` names a revision the workspace has moved past.
    public static let revisionMismatch = "revision_mismatch"
    /// The peer may not read, or may not change, the workspace.
    public static let forbidden = "forbidden"
    /// The change was applied but could not be made durable.
    public static let notDurable = "not_durable"
    /// The daemon is stopping and refuses changes.
    public static let unavailable = "unavailable"
}
