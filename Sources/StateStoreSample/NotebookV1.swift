import StateModel
import StateStore

/// A note as version 1 wrote it: `kind` is a number.
@StateModel
public struct NoteV1: Sendable, Equatable {
    /// Identifier.
    public var id: String
    /// Title.
    public var title: String
    /// 0 = text, 1 = list.
    public var kind: Int
    /// Tags.
    public var tags: [String]
    /// Keys this version does not declare.
    public var unknownFields = UnknownFields()
}

/// The author as version 1 wrote it: one `name`, and `age` as a string.
@StateModel
public struct AuthorV1: Sendable, Equatable {
    /// Full name.
    public var name: String
    /// Age, as text.
    public var age: String
    /// Keys this version does not declare.
    public var unknownFields = UnknownFields()
}
