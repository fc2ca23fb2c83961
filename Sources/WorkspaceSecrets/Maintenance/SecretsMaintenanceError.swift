/// Why an offline `workspaced secrets` tool did nothing (or, for ``writeFailed``, stopped part way; the message
/// says what is where).
public struct SecretsMaintenanceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure, for the exit status.
    public enum Reason: String, Sendable, Equatable {
        /// The daemon (or another tool) holds the store's lock.
        case locked
        /// There is no store.
        case missing
        /// The store cannot be read (key, envelope, content, version).
        case unreadable
        /// The request cannot be carried out as given (e.g. no new key for a credential).
        case usage
        /// A write failed.
        case writeFailed = "write_failed"
    }

    /// The kind of failure.
    public var reason: Reason
    /// What happened and what to do.
    public var message: String

    /// A failure of `reason` explained by `message`.
    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
