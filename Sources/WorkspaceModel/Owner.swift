import StateCoding
import StateModel

/// Who the workspace belongs to.
///
/// A missing `email` reads as "" and is recorded as defaulted in the load report; `alias` is required.
@StateModel
public struct Owner: Codable, Sendable, Equatable {
    /// The name shown for the owner (`name` before version 3).
    public var alias: String
    /// The owner's e-mail address; empty when not given.
    public var email: String = ""
    /// Keys this version does not declare.
    public var unknownFields: UnknownFields

    /// An owner with the given fields; an empty alias unless given.
    public init(alias: String = "", email: String = "", unknownFields: UnknownFields = UnknownFields()) {
        self.alias = alias
        self.email = email
        self.unknownFields = unknownFields
    }
}
