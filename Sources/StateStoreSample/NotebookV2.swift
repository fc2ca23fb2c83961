import StateModel
import StateStore

/// A note as version 2 wrote it: gains `pinned`.
@StateModel
public struct NoteV2: Sendable, Equatable {
    /// Identifier.
    public var id: String
    /// Title.
    public var title: String
    /// 0 = text, 1 = list.
    public var kind: Int
    /// Whether the note is pinned.
    public var pinned: Bool
    /// Tags.
    public var tags: [String]
    /// Keys this version does not declare.
    public var unknownFields = UnknownFields()
}

/// The author as version 2 wrote it: `name` renamed `displayName`.
@StateModel
public struct AuthorV2: Sendable, Equatable {
    /// Full name.
    public var displayName: String
    /// Age, as text.
    public var age: String
    /// Keys this version does not declare.
    public var unknownFields = UnknownFields()
}
