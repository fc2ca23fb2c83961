import Foundation
import StateModel
import StateStore

/// The sample model's root at any version: notes and their author, with unknown keys kept. Its record types read
/// themselves from the bytes and write themselves to them (`StateDirectDecodable`, `StateDirectEncodable`, which
/// `@StateModel` generates), so that the root does too.
///
/// The sample exercises every kind of schema change across four versions:
/// - v1 → v2: a field added with a default (`notes[].pinned`), a field renamed (`author.name` → `displayName`).
/// - v2 → v3: a field split in two (`author.displayName` → `givenName` + `familyName`), an optional date added
///   whose default is "unknown" (`notes[].createdAt`).
/// - v3 → v4: a field removed (`author.age`), a type changed with a mapping (`notes[].kind` 0/1 → "text"/"list").
@StateModel
public struct NotebookFile<
    NoteType: Codable & Sendable & Equatable & StateDirectDecodable & StateDirectEncodable,
    AuthorType: Codable & Sendable & Equatable & StateDirectDecodable & StateDirectEncodable
>: Codable, Sendable, Equatable {
    /// The notes, in order.
    @StateRecords public var notes: [NoteType]
    /// Who wrote them.
    public var author: AuthorType
    /// Root keys this version does not declare.
    public var unknownFields = UnknownFields()
}

/// The current (version 4) sample model.
public typealias Notebook = NotebookFile<Note, Author>
/// Version 1 of the sample, as it shipped.
public typealias NotebookV1 = NotebookFile<NoteV1, AuthorV1>
/// Version 2 of the sample, as it shipped.
public typealias NotebookV2 = NotebookFile<NoteV2, AuthorV2>
/// Version 3 of the sample, as it shipped.
public typealias NotebookV3 = NotebookFile<NoteV3, AuthorV3>
