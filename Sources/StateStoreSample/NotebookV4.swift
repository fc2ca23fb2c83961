import Foundation
import StateModel
import StateStore

/// What a note holds; unknown kinds written by newer releases are kept as they are.
public struct NoteKind: ExtensibleEnum {
    /// The raw value as stored.
    public let rawValue: String
    /// Wraps any raw value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Free text.
    public static let text = NoteKind(rawValue: "text")
    /// A checklist.
    public static let list = NoteKind(rawValue: "list")
    /// The kinds this release understands.
    public static let knownValues: [NoteKind] = [.text, .list]
}

/// A note at the current version: `kind` is a string.
@StateModel
public struct Note: Sendable, Equatable {
    /// Identifier.
    public var id: String
    /// Title.
    public var title: String
    /// What the note holds.
    public var kind: NoteKind
    /// Whether the note is pinned; a file without the key reads as `false` (the default since version 2).
    public var pinned: Bool = false
    /// When the note was created; `nil` when unknown.
    public var createdAt: Date?
    /// Tags.
    public var tags: [String]
    /// Keys this version does not declare.
    public var unknownFields = UnknownFields()
}

/// The author at the current version: `age` removed.
@StateModel
public struct Author: Sendable, Equatable {
    /// Given name.
    public var givenName: String
    /// Family name.
    public var familyName: String
    /// Keys this version does not declare.
    public var unknownFields = UnknownFields()
}
