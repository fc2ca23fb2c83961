import Foundation
import StateStore
import StateStoreSample
import TestSupport
import Testing

@Suite("Chained migrations")
struct MigrationTests {
    let codec: StateCodec<Notebook>

    init() throws {
        codec = StateCodec(schema: try NotebookSchema.make())
    }

    @Test func aFileWithoutVersionIsTheFirstVersionAndRunsEveryStep() throws {
        let decoded = try codec.decode(try Fixtures.data("notebook/v1.json"))
        #expect(decoded.storedVersion == 1)
        #expect(decoded.stepsApplied == [1...2, 2...3, 3...4])
        let notebook = decoded.model
        #expect(notebook.notes.map(\.kind) == [.list, .text], "0/1 mapped to strings")
        #expect(notebook.notes.map(\.pinned) == [false, false], "added field gets its explicit default")
        #expect(notebook.notes.allSatisfy { $0.createdAt == nil }, "a migrated date is unknown, never now")
        #expect(notebook.author.givenName == "Ada", "renamed then split")
        #expect(notebook.author.familyName == "Lovelace")
        #expect(decoded.fieldsDefaulted == ["notes[].pinned": 2, "notes[].createdAt": 2])
        #expect(decoded.warnings.isEmpty)
    }

    @Test func eachStoredVersionRunsOnlyTheStepsAfterIt() throws {
        #expect(try codec.decode(try Fixtures.data("notebook/v2.json")).stepsApplied == [2...3, 3...4])
        #expect(try codec.decode(try Fixtures.data("notebook/v3.json")).stepsApplied == [3...4])
        #expect(try codec.decode(try Fixtures.data("notebook/v4.json")).stepsApplied.isEmpty)
    }

    @Test func eachStepRecordsTheDefaultsItFills() throws {
        let fromV2 = try codec.decode(try Fixtures.data("notebook/v2.json"))
        #expect(fromV2.fieldsDefaulted == ["notes[].createdAt": 2], "an unknown date is a recorded default")
        #expect(try codec.decode(try Fixtures.data("notebook/v3.json")).fieldsDefaulted.isEmpty)
        #expect(try codec.decode(try Fixtures.data("notebook/v4.json")).fieldsDefaulted.isEmpty)
    }

    @Test func splitKeepsEverythingAfterTheFirstWordAsFamilyName() throws {
        let notebook = try codec.decode(try Fixtures.data("notebook/v2.json")).model
        #expect(notebook.author.givenName == "Grace")
        #expect(notebook.author.familyName == "Brewster Hopper")
        #expect(notebook.notes.map(\.pinned) == [true, false], "stored values are not replaced by defaults")
        #expect(notebook.notes[1].tags == ["work", "later"])
    }

    @Test func aStoredDateSurvivesAndAMissingOneStaysUnknown() throws {
        let notebook = try codec.decode(try Fixtures.data("notebook/v3.json")).model
        #expect(notebook.notes[0].createdAt == Date(timeIntervalSince1970: 1_709_287_200))
        #expect(notebook.notes[1].createdAt == nil)
    }

    @Test func anUnmappableNumberBecomesTheFallbackWithAWarningNamingTheRecord() throws {
        let decoded = try codec.decode(try Fixtures.data("edge/unknown-kind-number.json"))
        #expect(decoded.model.notes[0].kind == .text)
        #expect(decoded.warnings == ["note n7: kind 7 is unknown; mapped to text"])
    }

    @Test func repairsAreAppliedAndReported() throws {
        let decoded = try codec.decode(try Fixtures.data("edge/duplicate-ids.json"))
        #expect(decoded.model.notes.map(\.id) == ["n1", "n1-dup1"])
        #expect(decoded.repairs.count == 1)
        #expect(decoded.repairs[0].contains("n1"))
    }

    @Test func migratingTwiceChangesNothing() throws {
        let first = try codec.decode(try Fixtures.data("notebook/v1.json"))
        let saved = try codec.encode(first.model)
        let second = try codec.decode(saved)
        #expect(second.model == first.model)
        #expect(second.stepsApplied.isEmpty)
        #expect(try codec.encode(second.model) == saved)
    }

    @Test func aStepThatThrowsMakesTheFileCorruptNamingTheStep() throws {
        struct Refusal: Error {}
        let schema = try StateSchema<Current>(
            currentVersion: 2,
            migrations: [MigrationStep(from: 1, Old.self, to: Current.self) { _, _ in throw Refusal() }],
            initial: { Current(a: 0) })
        let codec = StateCodec(schema: schema)
        #expect {
            try codec.decode(Data(#"{"a": 1}"#.utf8))
        } throws: { error in
            guard case .corrupt(let reason) = error as? StateDecodingError else { return false }
            return reason.contains("migration from version 1 to 2")
        }
    }

    @Test func theVersionKeyIsConfigurable() throws {
        let schema = try StateSchema<Current>(
            currentVersion: 2, versionKey: "schema",
            migrations: [MigrationStep(from: 1, Old.self, to: Current.self) { old, _ in Current(a: old.a * 10) }],
            initial: { Current(a: 0) })
        let codec = StateCodec(schema: schema)
        #expect(try codec.decode(Data(#"{"a": 1, "version": 1}"#.utf8)).model == Current(a: 10))
        #expect(try codec.decode(Data(#"{"a": 1, "schema": 2}"#.utf8)).model == Current(a: 1))
        let written = try jsonObject(try codec.encode(Current(a: 3)))
        #expect(written["schema"] as? Int == 2)
        #expect(written["version"] == nil)
    }
}
