import Foundation
import StateModel
import StateStore
import StateStoreTesting
import Testing

@testable import StateStoreExample

/// The code of the WritingAMigrationStep article, compiled and run: the example's `Starts` taken to version 3
/// (the time of every start), first with a step up only, then with its reverse. Each namespace holds one stage of
/// the article; its Swift blocks are text of this file (StateStoreExampleTests checks), indentation aside.
@Suite("The WritingAMigrationStep article's version 3 of the example")
struct WritingAMigrationStepTests {
    /// Version 3 with the step up only.
    enum Version3 {
        /// Version 2 of the state file, frozen as it shipped.
        struct StartsV2: Codable, Sendable {
            var starts: Int
            var lastStartedAt: Date?
        }

        /// The current model, version 3: the time of every start, newest last.
        struct Starts: Codable, Sendable, Equatable {
            var starts: Int
            var startedAt: [Date]
        }

        static func make() throws(MigrationPlanError) -> StateSchema<Starts> {
            try StateSchema(
                currentVersion: 3,
                migrations: [
                    MigrationStep(from: 1, StartsV1.self, to: StartsV2.self) { old, context in
                        context.defaulted("lastStartedAt")
                        return StartsV2(starts: old.count, lastStartedAt: nil)
                    },
                    MigrationStep(from: 2, StartsV2.self, to: Starts.self) { old, context in
                        if old.lastStartedAt == nil { context.warn("the time of the last start is unknown") }
                        return Starts(starts: old.starts, startedAt: old.lastStartedAt.map { [$0] } ?? [])
                    },
                ],
                initial: { Starts(starts: 0, startedAt: []) })
        }
    }

    /// Version 3 with the reverse of its step: both versions keep unknown fields, so that version 2 can carry
    /// what it cannot hold.
    enum Reversible {
        @StateModel
        struct StartsV2: Sendable, Equatable {
            var starts: Int
            var lastStartedAt: Date?
            var unknownFields = UnknownFields()
        }

        @StateModel
        struct Starts: Sendable, Equatable {
            var starts: Int
            var startedAt: [Date]
            var unknownFields = UnknownFields()
        }

        static let step =
            MigrationStep(
                from: 2, StartsV2.self, to: Starts.self,
                convert: { old, context in
                    var fields = old.unknownFields
                    // Every start a rollback set aside, else the last one as before.
                    let all = context.takeBack([Date].self, "startedAt", from: &fields, at: "")
                    return Starts(
                        starts: old.starts, startedAt: all ?? old.lastStartedAt.map { [$0] } ?? [],
                        unknownFields: fields)
                },
                revert: { new, context in
                    StartsV2(
                        starts: new.starts, lastStartedAt: new.startedAt.last,
                        unknownFields: try context.setAside(
                            new.startedAt, as: "startedAt", in: new.unknownFields, at: ""))
                })

        static func make() throws(MigrationPlanError) -> StateSchema<Starts> {
            try StateSchema(
                currentVersion: 3, firstVersion: 2, migrations: [step],
                initial: { Starts(starts: 0, startedAt: []) })
        }
    }

    /// The article's step that takes a large old state apart: a model of its own, with many records.
    enum Consuming {
        @StateModel
        struct NoteV1: Sendable, Equatable {
            var text: String
            var unknownFields = UnknownFields()
        }

        @StateModel
        struct NotesV1: Sendable, Equatable {
            var items: [NoteV1]
            var unknownFields = UnknownFields()
        }

        @StateModel
        struct Note: Sendable, Equatable {
            var text: String
            var length: Int
            var unknownFields = UnknownFields()
        }

        @StateModel
        struct Notes: Sendable, Equatable {
            var items: [Note]
            var unknownFields = UnknownFields()
        }

        static func make() throws(MigrationPlanError) -> StateSchema<Notes> {
            try StateSchema(
                currentVersion: 2,
                migrations: [
                    // A model with many records (not the example's): `NotesV1.items` becomes `Notes.items`.
                    MigrationStep(
                        from: 1, NotesV1.self, to: Notes.self,
                        consuming: { old, context in
                            var items = old.items
                            old.items = []  // `items` is the only reference to the old records now
                            var notes: [Note] = []
                            notes.reserveCapacity(items.count)
                            items.reverse()
                            while let item = items.popLast() {  // each old record is freed once converted
                                notes.append(Note(migrating: item))
                            }
                            return Notes(items: notes, unknownFields: old.unknownFields)
                        })
                ],
                initial: { Notes(items: []) })
        }
    }

    @Test func theStepThatTakesTheOldStateApartKeepsEveryRecordInOrder() throws {
        let bytes = Data(#"{"version":1,"items":[{"text":"a"},{"text":"bcd","pinned":true}],"owner":"x"}"#.utf8)
        let notes = try StateCodec(schema: try Consuming.make()).decode(bytes).model
        #expect(notes.items.map(\.text) == ["a", "bcd"])
        #expect(notes.items.map(\.length) == [1, 3])
        #expect(notes.items[1].unknownFields["pinned"] == .bool(true), "a record's unknown field is carried")
        #expect(notes.unknownFields["owner"] == .string("x"))
    }

    @Test func theExampleFixturesOfVersions1And2LoadAsVersion3() throws {
        let verifier = FixtureVerifier(schema: try Version3.make())
        let fixtures = StateStoreExampleTests.fixtures
        let v1 = try verifier.verify(Data(contentsOf: fixtures.appendingPathComponent("v1.json")), name: "v1.json")
        #expect(v1.decoded.model == Version3.Starts(starts: 3, startedAt: []))
        #expect(v1.decoded.warnings == ["the time of the last start is unknown"])
        let v2 = try verifier.verify(Data(contentsOf: fixtures.appendingPathComponent("v2.json")), name: "v2.json")
        #expect(v2.decoded.model.startedAt.count == 1 && v2.decoded.model.starts == 4)
    }

    @Test func theReverseSetsEveryStartAsideAndTheStepUpTakesThemBack() throws {
        let codec = StateCodec(schema: try Reversible.make())
        let starts = [Date(timeIntervalSince1970: 1_700_000_000), Date(timeIntervalSince1970: 1_700_000_060)]
        let down = try codec.encode(Reversible.Starts(starts: 2, startedAt: starts), downTo: 2)
        #expect(down.fieldsSetAside == ["startedAt": 1])
        let back = try codec.decode(down.data)
        #expect(back.model.startedAt == starts && back.fieldsTakenBack == ["startedAt": 1])
        _ = try FixtureVerifier(schema: try Reversible.make()).verifyWayDown(back.model, name: "two starts")
    }

    /// The DurableAcknowledgements article's acknowledgement after the save.
    @Test func aChangeAcknowledgedOnceDurable() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = StateFile(path: directory.file("starts.json"), schema: try StartsSchema.make())
        let state = PersistentState(file: file, loaded: try file.load())
        let applied = try state.apply { $0.starts += 1 }
        state.saveSoon()
        try await state.waitUntilDurable(applied.revision)
        #expect(state.status.durableRevision == applied.revision)
        try state.close()
    }
}

extension WritingAMigrationStepTests.Consuming.Note {
    /// A version 1 note in the current shape: its length counted, its unknown fields kept.
    init(migrating old: WritingAMigrationStepTests.Consuming.NoteV1) {
        self.init(text: old.text, length: old.text.count, unknownFields: old.unknownFields)
    }
}
