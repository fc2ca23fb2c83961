import StateStore

/// The sample's schema: version 4, with the three steps that bring any earlier file to it. The last step has a
/// reverse (version 4 written as version 3, for a rollback); the others do not, so version 3 is as low as a
/// notebook goes down.
public enum NotebookSchema {
    /// The note key under which ``down4(_:_:)`` sets aside a kind version 3 has no number for.
    static let kindKey = "kindName"

    /// v3 → v4: `kind` 0/1 becomes "text"/"list"; another number becomes "text" with a warning. A kind set
    /// aside by ``down4(_:_:)`` is taken back while the note still has the number it was written with (0).
    @Sendable static func up3(_ old: NotebookV3, _ context: inout MigrationContext) -> Notebook {
        Notebook(
            notes: old.notes.map { note in
                var fields = note.unknownFields
                let setAside = context.takeBack(String.self, kindKey, from: &fields, at: "notes[]")
                let kind: NoteKind
                switch (note.kind, setAside) {
                case (0, let name?): kind = NoteKind(rawValue: name)
                case (0, _): kind = .text
                case (1, _): kind = .list
                default:
                    kind = .text
                    context.warn("note \(note.id): kind \(note.kind) is unknown; mapped to text")
                }
                return Note(
                    id: note.id, title: note.title, kind: kind, pinned: note.pinned, createdAt: note.createdAt,
                    tags: note.tags, unknownFields: fields)
            },
            author: Author(
                givenName: old.author.givenName, familyName: old.author.familyName,
                unknownFields: old.author.unknownFields),
            unknownFields: old.unknownFields)
    }

    /// v4 → v3: `kind` becomes a number again (a kind version 3 cannot name is written as 0 with its name set
    /// aside as `kindName`); the author gets back an `age`, "" (version 4 has none).
    @Sendable static func down4(_ new: Notebook, _ context: inout MigrationContext) throws -> NotebookV3 {
        context.defaulted("author.age")
        return NotebookV3(
            notes: try new.notes.map { note in
                var fields = note.unknownFields
                let number: Int
                switch note.kind {
                case .text: number = 0
                case .list: number = 1
                default:
                    number = 0
                    fields = try context.setAside(note.kind.rawValue, as: kindKey, in: fields, at: "notes[]")
                }
                return NoteV3(
                    id: note.id, title: note.title, kind: number, pinned: note.pinned, createdAt: note.createdAt,
                    tags: note.tags, unknownFields: fields)
            },
            author: AuthorV3(
                givenName: new.author.givenName, familyName: new.author.familyName, age: "",
                unknownFields: context.carry(new.author.unknownFields, to: "author", declaring: ["age"])),
            unknownFields: new.unknownFields)
    }

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
                MigrationStep(
                    from: 3, NotebookV3.self, to: Notebook.self, convert: NotebookSchema.up3,
                    revert: NotebookSchema.down4),
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
