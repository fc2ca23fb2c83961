import Foundation
import StateModel
import StateStore
import StateStoreTesting
import TestSupport
import Testing

// Issue 41: a file from a newer release that this one may read (`minReaderVersion` 2, `version` 3) holds a key at
// the root and a key inside a nested record that version 2 does not know. No field read is lost without the load
// report saying so.

/// Version 2 as a newcomer writes it: `@StateModel`, no `UnknownFields` property anywhere.
@StateModel
struct NewerFileEditor: Sendable, Equatable {
    var fontSize: Int = 12
}

@StateModel
struct NewerFileSettings: Sendable, Equatable {
    var theme: String
    var editor: NewerFileEditor = NewerFileEditor()
}

/// The same version 2, opting out of keeping what it does not know.
@StateModel(unknownFields: .drop)
struct DroppingEditor: Sendable, Equatable {
    var fontSize: Int = 12
}

@StateModel(unknownFields: .drop)
struct DroppingSettings: Sendable, Equatable {
    var theme: String
    var editor: DroppingEditor = DroppingEditor()
}

/// The same version 2 with the `Codable` Swift synthesizes.
struct SynthesizedEditor: Codable, Sendable, Equatable {
    var fontSize: Int
    var tabWidth: Int?
}

struct SynthesizedNewerSettings: Codable, Sendable, Equatable {
    var theme: String
    var editor: SynthesizedEditor
}

/// Version 1 of the settings, for the steps below: it keeps the keys it does not declare (the macro's default).
@StateModel
struct NewerFileSettingsV1: Sendable {
    var theme: String
}

@Suite("A newer file's fields are kept, or reported dropped (issue 41)")
struct NewerFileFieldsTests {
    /// Version 3: `lineSpacing` at the root and `editor.wordWrap` are unknown to version 2.
    static let newer =
        #"{"editor":{"fontSize":14,"wordWrap":"bounded"},"lineSpacing":1.50,"minReaderVersion":2,"theme":"dark","#
        + #""version":3}"#

    static func file<Model: Codable & Sendable>(
        _ directory: TemporaryDirectory, _ initial: @escaping @Sendable () -> Model
    ) throws -> StateFile<Model> {
        StateFile(
            path: directory.file("settings.json"),
            schema: try StateSchema(currentVersion: 2, firstVersion: 2, initial: initial))
    }

    @Test func aModelThatDeclaresNoUnknownFieldsKeepsThemThroughTwoSaves() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("settings.json", Self.newer)
        let file = try Self.file(directory) { NewerFileSettings(theme: "light") }
        var loaded = try file.load()
        #expect(loaded.report.isNewerCompatible)
        #expect(loaded.report.unknownKeysKept == ["lineSpacing": 1, "editor.wordWrap": 1])
        #expect(loaded.report.unknownKeysDropped.isEmpty)
        #expect(loaded.report.warnings.isEmpty)
        loaded.model.theme = "solarized"
        try file.save(loaded.model, revision: 1)
        loaded.model.editor.fontSize = 16
        try file.save(loaded.model, revision: 2)

        let saved = try jsonObject(try directory.read("settings.json"))
        #expect(saved["version"] as? Int == 3, "still labelled as the newer release wrote it")
        #expect(saved["minReaderVersion"] as? Int == 2)
        #expect(saved["theme"] as? String == "solarized")
        let text = String(decoding: try directory.read("settings.json"), as: UTF8.self)
        // A newer file is read through Codable (the direct reader reads this release's versions), which keeps the
        // value, not its spelling.
        #expect(text.contains(#""lineSpacing":1.5,"#), "\(text)")
        #expect(text.contains(#""editor":{"fontSize":16,"wordWrap":"bounded"}"#), "\(text)")
        #expect(try directory.names() == [".settings.json.lock", "settings.json"], "nothing dropped: no backup")
    }

    @Test func aModelThatDropsThemReportsEachAndSavesAsItsOwnVersion() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("settings.json", Self.newer)
        let file = try Self.file(directory) { DroppingSettings(theme: "light") }
        let loaded = try file.load()
        #expect(loaded.report.unknownKeysDropped == ["lineSpacing": 1, "editor.wordWrap": 1])
        #expect(loaded.report.unknownKeysKept.isEmpty)
        #expect(loaded.report.warnings.count == 1)
        #expect(loaded.report.warnings.first?.contains("editor.wordWrap (1), lineSpacing (1)") == true)
        #expect(loaded.report.summary.contains("2 unknown fields dropped"))
        #expect(loaded.report.description.contains("unknown fields dropped: editor.wordWrap (1), lineSpacing (1)"))
        try file.save(loaded.model, revision: 1)

        let saved = try jsonObject(try directory.read("settings.json"))
        #expect(saved["version"] as? Int == 2, "it cannot carry version 3's fields, so it is not labelled 3")
        #expect(saved["minReaderVersion"] as? Int == 2)
        #expect(saved["lineSpacing"] == nil)
        #expect(try directory.read("settings.json.v3.bak") == Data(Self.newer.utf8), "the original bytes are kept")
    }

    @Test func bothReadPathsCountTheSameDroppedKeys() throws {
        var codec = StateCodec(
            schema: try StateSchema(currentVersion: 2, firstVersion: 2, initial: { DroppingSettings(theme: "") }))
        // A version 2 file with the same two keys (the direct reader reads this release's versions).
        let current = Data(Self.newer.replacingOccurrences(of: #""version":3"#, with: #""version":2"#).utf8)
        let direct = try codec.decode(current)
        codec.readsDirectly = false
        let throughCodable = try codec.decode(current)
        #expect(direct.directReadFallback == nil)
        #expect(direct.unknownKeysDropped == ["lineSpacing": 1, "editor.wordWrap": 1])
        #expect(throughCodable.unknownKeysDropped == direct.unknownKeysDropped)
    }

    @Test func aSynthesizedCodableModelHasWhatItDroppedReported() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // `tabWidth` is declared and null: not a dropped field.
        let withNull = Self.newer.replacingOccurrences(of: #""wordWrap""#, with: #""tabWidth":null,"wordWrap""#)
        try directory.write("settings.json", withNull)
        let file = try Self.file(directory) {
            SynthesizedNewerSettings(theme: "light", editor: SynthesizedEditor(fontSize: 12))
        }
        let loaded = try file.load()
        #expect(loaded.report.unknownKeysDropped == ["lineSpacing": 1, "editor.wordWrap": 1])
        #expect(loaded.report.warnings.count == 1)
        try file.save(loaded.model, revision: 1)
        let saved = try jsonObject(try directory.read("settings.json"))
        #expect(saved["version"] as? Int == 2)
        #expect(try directory.read("settings.json.v3.bak") == Data(withNull.utf8))
    }

    @Test func aSynthesizedCodableModelThatDropsNothingHasNothingReported() throws {
        let codec = StateCodec(
            schema: try StateSchema(
                currentVersion: 2, firstVersion: 2,
                initial: { SynthesizedNewerSettings(theme: "", editor: SynthesizedEditor(fontSize: 12)) }))
        let decoded = try codec.decode(
            Data(#"{"editor":{"fontSize":14,"tabWidth":null},"lineage":"0123456789abcdef","revision":4,"#.utf8)
                + Data(#""theme":"dark","version":2}"#.utf8))
        #expect(decoded.unknownKeysDropped.isEmpty)
        #expect(decoded.warnings.isEmpty)
    }

    @Test func theFixtureVerifierFailsAModelThatDropsAKeyOfAFixture() throws {
        let current = Data(Self.newer.replacingOccurrences(of: #""version":3"#, with: #""version":2"#).utf8)
        let dropping = FixtureVerifier(
            schema: try StateSchema(currentVersion: 2, firstVersion: 2, initial: { DroppingSettings(theme: "") }))
        let failure = #expect(throws: FixtureFailure.self) { try dropping.verify(current, name: "v2.json") }
        #expect(failure?.check == "unknown fields")
        #expect(failure?.detail.contains(#"["editor.wordWrap", "lineSpacing"]"#) == true)
        let keeping = FixtureVerifier(
            schema: try StateSchema(currentVersion: 2, firstVersion: 2, initial: { NewerFileSettings(theme: "") }))
        let kept = try keeping.verify(current, name: "v2.json")
        #expect(kept.decoded.unknownKeysKept == ["lineSpacing": 1, "editor.wordWrap": 1])
    }

    /// A version 1 file holding a key version 1 does not declare (a rollback's, say): a step that carries the old
    /// record's unknown fields keeps it; one that forgets them has the load report say so.
    @Test func aStepThatDoesNotCarryTheUnknownFieldsIsReported() throws {
        let file = Data(#"{"theme":"dark","version":1,"cursor":"block"}"#.utf8)
        func codec(carrying: Bool) throws -> StateCodec<NewerFileSettings> {
            let step = MigrationStep(from: 1, NewerFileSettingsV1.self, to: NewerFileSettings.self) { old, report in
                let kept = carrying ? report.carry(old.unknownFields, to: "", declaring: ["editor"]) : UnknownFields()
                return NewerFileSettings(theme: old.theme, unknownFields: kept)
            }
            return StateCodec(
                schema: try StateSchema(
                    currentVersion: 2, migrations: [step], initial: { NewerFileSettings(theme: "") }))
        }
        let carried = try codec(carrying: true).decode(file)
        #expect(carried.model.unknownFields.values == ["cursor": .string("block")])
        #expect(carried.warnings.isEmpty)
        let forgotten = try codec(carrying: false).decode(file)
        #expect(forgotten.unknownKeysKept == ["cursor": 1])
        #expect(forgotten.warnings.count == 1)
        #expect(forgotten.warnings.first?.hasPrefix("1 of the 1 unknown fields read at version 1 (cursor)") == true)
    }
}
