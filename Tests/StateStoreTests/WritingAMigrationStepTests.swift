import Foundation
import StateModel
import StateStore
import StateStoreTesting
import Testing

@testable import Settings

/// The code of the WritingAMigrationStep article, compiled and run: the getting-started service's `Settings`
/// (Tests/Newcomer, at version 2) taken to version 3, whose font has a family as well as a size, first with a step
/// up only, then with its reverse. Each namespace holds one stage of the article; its Swift blocks are text of this
/// file (GuideCodeTests checks), indentation aside.
@Suite("The WritingAMigrationStep article's version 3 of the settings")
struct WritingAMigrationStepTests {
    /// Version 3 with the step up only.
    enum Version3 {
        /// Version 2 of the settings file, frozen as it shipped.
        @StateModel struct SettingsV2: Sendable {
            var theme: String
            var fontSize: Int = 12
        }

        /// The current settings, version 3: the font has a family as well as a size.
        @StateModel struct Settings: Sendable, Equatable {
            var theme: String
            var font: Font
        }

        /// A font: its family and its size in points.
        @StateModel struct Font: Sendable, Equatable {
            var family: String
            var size: Int
        }

        static func settingsSchema() throws(MigrationPlanError) -> StateSchema<Settings> {
            try StateSchema(
                currentVersion: 3,
                migrations: [
                    MigrationStep(from: 1, SettingsV1.self, to: SettingsV2.self) { v1, report in
                        report.defaulted("fontSize")
                        return SettingsV2(
                            theme: v1.theme,
                            unknownFields: report.carry(v1.unknownFields, to: "", declaring: ["fontSize"]))
                    },
                    MigrationStep(from: 2, SettingsV2.self, to: Settings.self) { v2, report in
                        report.defaulted("font.family")
                        if v2.fontSize < 6 { report.warn("font size \(v2.fontSize) is below 6 points: 6 used") }
                        return Settings(
                            theme: v2.theme, font: Font(family: "monospace", size: max(v2.fontSize, 6)),
                            unknownFields: report.carry(v2.unknownFields, to: "", declaring: ["font"]))
                    },
                ],
                initial: { Settings(theme: "light", font: Font(family: "monospace", size: 12)) })
        }
    }

    /// Version 3 with the reverse of its step: version 2 keeps the font's family among its unknown fields.
    enum Reversible {
        typealias SettingsV2 = Version3.SettingsV2
        typealias Settings = Version3.Settings
        typealias Font = Version3.Font

        static let step =
            MigrationStep(
                from: 2, SettingsV2.self, to: Settings.self,
                convert: { v2, report in
                    var fields = v2.unknownFields
                    // The family a rollback set aside, else the default as before.
                    let family = report.takeBack(String.self, "fontFamily", from: &fields, at: "")
                    if family == nil { report.defaulted("font.family") }
                    if v2.fontSize < 6 { report.warn("font size \(v2.fontSize) is below 6 points: 6 used") }
                    return Settings(
                        theme: v2.theme, font: Font(family: family ?? "monospace", size: max(v2.fontSize, 6)),
                        unknownFields: report.carry(fields, to: "", declaring: ["font"]))
                },
                revert: { v3, report in
                    SettingsV2(
                        theme: v3.theme, fontSize: v3.font.size,
                        unknownFields: try report.setAside(
                            v3.font.family, as: "fontFamily", in: v3.unknownFields, at: ""))
                })

        static func settingsSchema() throws(MigrationPlanError) -> StateSchema<Settings> {
            try StateSchema(
                currentVersion: 3, firstVersion: 2, migrations: [step],
                initial: { Settings(theme: "light", font: Font(family: "monospace", size: 12)) })
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
                    // A model with many records (not the settings): `NotesV1.items` becomes `Notes.items`.
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

    @Test func theServicesFixturesOfVersions1And2LoadAsVersion3() throws {
        let verifier = FixtureVerifier(schema: try Version3.settingsSchema())
        let fixtures = GuideCodeTests.newcomerFixtures
        let v1 = try verifier.verify(Data(contentsOf: fixtures.appendingPathComponent("v1.json")), name: "v1.json")
        #expect(
            v1.decoded.model == Version3.Settings(theme: "dark", font: Version3.Font(family: "monospace", size: 12)))
        #expect(v1.decoded.fieldsDefaulted == ["fontSize": 1, "font.family": 1])
        let v2 = try verifier.verify(Data(contentsOf: fixtures.appendingPathComponent("v2.json")), name: "v2.json")
        #expect(v2.decoded.model.font == Version3.Font(family: "monospace", size: 14))
        #expect(v2.decoded.warnings.isEmpty)
    }

    @Test func aSizeBelowSixIsMappedToSixWithAWarning() throws {
        let codec = StateCodec(schema: try Version3.settingsSchema())
        let decoded = try codec.decode(Data(#"{"fontSize":2,"theme":"dark","version":2}"#.utf8))
        #expect(decoded.model.font.size == 6)
        #expect(decoded.warnings == ["font size 2 is below 6 points: 6 used"])
    }

    /// The article's version 3 fixture is what a save of that state writes, less the revision, lineage and checksum.
    @Test func theArticlesVersion3FixtureIsWhatTheCodecWrites() throws {
        let codec = StateCodec(schema: try Version3.settingsSchema())
        let settings = Version3.Settings(theme: "dark", font: Version3.Font(family: "monospace", size: 14))
        let fixture = #"{"font":{"family":"monospace","size":14},"minReaderVersion":3,"theme":"dark","version":3}"#
        #expect(String(decoding: try codec.encode(settings), as: UTF8.self) == fixture)
        #expect(try codec.decode(Data(fixture.utf8)).model == settings)
    }

    @Test func theReverseSetsTheFamilyAsideAndTheStepUpTakesItBack() throws {
        let codec = StateCodec(schema: try Reversible.settingsSchema())
        let settings = Reversible.Settings(theme: "dark", font: Reversible.Font(family: "Iosevka", size: 15))
        let down = try codec.encode(settings, downTo: 2)
        #expect(down.fieldsSetAside == ["fontFamily": 1])
        let back = try codec.decode(down.data)
        #expect(back.model == settings && back.fieldsTakenBack == ["fontFamily": 1])
        _ = try FixtureVerifier(schema: try Reversible.settingsSchema()).verifyWayDown(back.model, name: "a family")
    }
}

extension WritingAMigrationStepTests.Consuming.Note {
    /// A version 1 note in the current shape: its length counted, its unknown fields kept.
    init(migrating old: WritingAMigrationStepTests.Consuming.NoteV1) {
        self.init(text: old.text, length: old.text.count, unknownFields: old.unknownFields)
    }
}
