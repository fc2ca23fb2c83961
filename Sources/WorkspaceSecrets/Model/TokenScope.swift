import StateStore

/// What an API token may do: `read` (GET and HEAD) or `write` (reads and changes).
///
/// Values a newer release wrote are kept as they are and grant nothing here (``isKnown`` is false).
public struct TokenScope: ExtensibleEnum {
    /// The stored text.
    public let rawValue: String

    /// Wraps any stored value.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Reads only.
    public static let read = TokenScope(rawValue: "read")
    /// Reads and changes.
    public static let write = TokenScope(rawValue: "write")

    /// The scopes this release grants.
    public static let knownValues: [TokenScope] = [.read, .write]
}
