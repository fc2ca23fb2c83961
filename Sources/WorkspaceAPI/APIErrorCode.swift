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
    /// A bearer token that is not valid (wrong, unknown, revoked, malformed), or token authentication is
    /// disabled; sent with 401 and `WWW-Authenticate: Bearer`.
    public static let unauthorized = "unauthorized"
    /// The secret store is unavailable (the token routes answer 503 and say why).
    public static let secretsUnavailable = "secrets_unavailable"
    /// No history is kept (`history.keepSeconds` or `history.maximumBytes` is 0): past states cannot be read.
    public static let historyDisabled = "history_disabled"
    /// The revision asked for is older than the history kept; the message names the oldest revision kept.
    public static let historyPruned = "history_pruned"
    /// A history file the read needs is damaged or missing; the message names it.
    public static let historyDamaged = "history_damaged"
    /// The change cannot be made over the records there are now (a restored project's pane or tab id is another
    /// project's now).
    public static let conflict = "conflict"
}
