import Foundation
import StateModel
import StateStore

/// A note as version 3 wrote it: gains an optional `createdAt`.
@StateModel
public struct NoteV3: Sendable, Equatable {
    /// Identifier.
    public var id: String
    /// Title.
    public var title: String
    /// 0 = text, 1 = list.
    public var kind: Int
    /// Whether the note is pinned.
    public var pinned: Bool
    /// When the note was created; `nil` when unknown (every note migrated from version 2).
    public var createdAt: Date?
    /// Tags.
    public var tags: [String]
    /// Keys this version does not declare.
    public var unknownFields = UnknownFields()
}

/// The author as version 3 wrote it: `displayName` split into `givenName` and `familyName`.
@StateModel
public struct AuthorV3: Sendable, Equatable {
    /// Given name.
    public var givenName: String
    /// Family name; empty when the display name was one word.
    public var familyName: String
    /// Age, as text.
    public var age: String
    /// Keys this version does not declare.
    public var unknownFields = UnknownFields()
}
