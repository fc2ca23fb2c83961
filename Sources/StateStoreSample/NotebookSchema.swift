import StateStore

/// The sample's schema: version 4, with the three steps that bring any earlier file to it.
public enum NotebookSchema {
    /// Builds the schema; the chain is validated here.
    public static func make() throws -> StateSchema<Notebook> {
        try StateSchema<Notebook>(
            currentVersion: 4,
            migrations: [
                MigrationStep(from: 1, NotebookV1.self, to: NotebookV2.self) { old, context in
                    context.defaulted("notes[].pinned", count: old.notes.count)
                    return NotebookV2(
                        notes: old.notes.map {
                            NoteV2(
                                id: $0.id, title: $0.title, kind: $0.kind, pinned: false, tags: $0.tags,
                                unknownFields: $0.unknownFields)
                        },
                        author: AuthorV2(
                            displayName: old.author.name, age: old.author.age,
                            unknownFields: old.author.unknownFields),
                        unknownFields: old.unknownFields)
                },
                MigrationStep(from: 2, NotebookV2.self, to: NotebookV3.self) { old, context in
                    context.defaulted("notes[].createdAt", count: old.notes.count)
                    let words = old.author.displayName.split(separator: " ", maxSplits: 1)
                    return NotebookV3(
                        notes: old.notes.map {
                            NoteV3(
                                id: $0.id, title: $0.title, kind: $0.kind, pinned: $0.pinned, createdAt: nil,
                                tags: $0.tags, unknownFields: $0.unknownFields)
                        },
                        author: AuthorV3(
                            givenName: words.first.map(String.init) ?? "",
                            familyName: words.count > 1 ? String(words[1]) : "", age: old.author.age,
                            unknownFields: old.author.unknownFields),
                        unknownFields: old.unknownFields)
                },
                MigrationStep(from: 3, NotebookV3.self, to: Notebook.self) { old, context in
                    Notebook(
                        notes: old.notes.map { note in
                            let kind: NoteKind
                            switch note.kind {
                            case 0: kind = .text
                            case 1: kind = .list
                            default:
                                kind = .text
                                context.warn("note \(note.id): kind \(note.kind) is unknown; mapped to text")
                            }
                            return Note(
                                id: note.id, title: note.title, kind: kind, pinned: note.pinned,
                                createdAt: note.createdAt, tags: note.tags, unknownFields: note.unknownFields)
                        },
                        author: Author(
                            givenName: old.author.givenName, familyName: old.author.familyName,
                            unknownFields: old.author.unknownFields),
                        unknownFields: old.unknownFields)
                },
            ],
            initial: { Notebook(notes: [], author: Author(givenName: "", familyName: "")) },
            repair: { notebook, log in
                var seen = Set<String>()
                for index in notebook.notes.indices {
                    if notebook.notes[index].title.isEmpty {
                        throw NotebookValidationError(noteID: notebook.notes[index].id, problem: "empty title")
                    }
                    if !seen.insert(notebook.notes[index].id).inserted {
                        let fresh = notebook.notes[index].id + "-dup\(index)"
                        log.repaired("note \(notebook.notes[index].id) repeated at index \(index): renamed \(fresh)")
                        notebook.notes[index].id = fresh
                    }
                }
            })
    }
}

/// A loaded notebook that breaks a rule repairs cannot fix.
public struct NotebookValidationError: Error, CustomStringConvertible {
    /// The offending note.
    public var noteID: String
    /// What is wrong.
    public var problem: String
    /// `note ID: problem`.
    public var description: String { "note \(noteID): \(problem)" }
}
