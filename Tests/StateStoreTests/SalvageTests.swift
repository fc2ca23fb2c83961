import Foundation
import StateStore
import StateStoreSample
import TestSupport
import Testing

/// The salvage policy on the sample model: a bad record is not a bad file.
@Suite("Salvage", .heavy)
struct SalvageTests {
    static let salvage = StateFileConfiguration(corruptFilePolicy: .salvage)
    static let keptName = "notebook.json.corrupt-20261118T110640Z"

    /// A version 4 note as JSON, with `fields` replacing or adding keys.
    static func note(_ index: Int, _ fields: [String: String] = [:]) -> String {
        var all = [
            "id": "\"n\(index)\"", "title": "\"Note \(index)\"", "kind": "\"text\"", "pinned": "false",
            "tags": "[\"t\(index % 7)\"]",
        ]
        for (key, value) in fields { all[key] = value }
        return "{" + all.keys.sorted().map { "\"\($0)\":\(all[$0]!)" }.joined(separator: ",") + "}"
    }

    static func notebook(_ notes: [String], version: Int = 4, author: String? = nil) -> String {
        let author = author ?? #"{"givenName":"Ada","familyName":"Lovelace"}"#
        return #"{"version":\#(version),"minReaderVersion":\#(version),"notes":["#
            + notes.joined(separator: ",") + #"],"author":\#(author)}"#
    }

    func load(
        _ text: String, configuration: StateFileConfiguration = salvage
    ) throws -> (LoadedState<Notebook>, TemporaryDirectory, StateFile<Notebook>) {
        let directory = try TemporaryDirectory()
        try directory.write("notebook.json", text)
        let file = try notebookFile(directory, configuration: configuration)
        return (try file.load(), directory, file)
    }

    @Test func aWrongTypeInOneRecordOfALargeCollectionKeepsEveryOtherRecord() throws {
        var notes = (0..<2_000).map { Self.note($0) }
        notes[1_234] = Self.note(1_234, ["title": "[\"not\", \"a\", \"title\"]"])
        let text = Self.notebook(notes)
        let (loaded, directory, file) = try load(text)
        defer { directory.remove() }

        #expect(loaded.report.source == .salvaged)
        #expect(loaded.model.notes.count == 1_999)
        #expect(!loaded.model.notes.contains { $0.id == "n1234" })
        #expect(loaded.model.notes[1_233].id == "n1233" && loaded.model.notes[1_234].id == "n1235")
        let salvage = try #require(loaded.report.salvage)
        #expect(salvage.droppedRecords.count == 1)
        let dropped = try #require(salvage.droppedRecords.first)
        #expect(dropped.path == "notes[1234]")
        #expect(dropped.id == "n1234")
        #expect(dropped.reason.contains("notes[1234].title"), "\(dropped.reason)")
        #expect(salvage.coercedFields.isEmpty && salvage.defaultedFields.isEmpty)
        #expect(salvage.reason.contains("notes[1234].title"))
        #expect(loaded.report.summary.contains("salvaged (1 record dropped, 0 fields coerced, 0 fields defaulted"))
        // The original bytes are kept before anything can replace them, and stay after the first save.
        #expect(salvage.originalKeptAt == directory.file(Self.keptName))
        #expect(try directory.read(Self.keptName) == Data(text.utf8))
        #expect(try directory.read("notebook.json") == Data(text.utf8))
        try file.save(loaded.model)
        #expect(try directory.read(Self.keptName) == Data(text.utf8))
        let reloaded = try notebookFile(directory, name: "notebook.json")
        file.unlock()
        let again = try reloaded.load()
        #expect(again.report.source == .file)
        #expect(again.model == loaded.model)
    }

    @Test func aDefaultableFieldOfTheWrongTypeTakesItsDefault() throws {
        let text = Self.notebook([
            Self.note(0), Self.note(1, ["pinned": "\"yes\""]), Self.note(2, ["createdAt": "12345"]),
            Self.note(3, ["pinned": "true"]),
        ])
        let (loaded, directory, _) = try load(text)
        defer { directory.remove() }
        #expect(loaded.model.notes.map(\.id) == ["n0", "n1", "n2", "n3"])
        #expect(loaded.model.notes.map(\.pinned) == [false, false, false, true])
        #expect(loaded.model.notes[2].createdAt == nil)
        let salvage = try #require(loaded.report.salvage)
        #expect(salvage.droppedRecords.isEmpty && salvage.coercedFields.isEmpty)
        #expect(salvage.defaultedFields.map(\.path) == ["notes[1].pinned", "notes[2].createdAt"])
        #expect(salvage.defaultedFields[0].reason.contains("expected Bool"), "\(salvage.defaultedFields[0])")
    }

    @Test func aNumberIsReadAsTextAndADigitStringAsAnInteger() throws {
        let text = #"""
            {"notes": [
              {"id": "n1", "title": 12.5, "kind": "1", "tags": []},
              {"id": 7, "title": "Seven", "kind": "-0", "tags": []},
              {"id": "n3", "title": "Big", "kind": 0, "tags": [[1], "x"]}
            ], "author": {"name": "Ada Lovelace", "age": 36}}
            """#
        let (loaded, directory, _) = try load(text)
        defer { directory.remove() }
        #expect(loaded.report.stepsApplied == [1...2, 2...3, 3...4])
        #expect(loaded.model.notes.map(\.id) == ["n1", "7"])
        #expect(loaded.model.notes.map(\.title) == ["12.5", "Seven"])
        #expect(loaded.model.notes.map(\.kind) == [.list, .text])
        let salvage = try #require(loaded.report.salvage)
        #expect(
            salvage.coercedFields == [
                .init(path: "notes[0].title", from: "12.5", to: "\"12.5\""),
                .init(path: "notes[0].kind", from: "\"1\"", to: "1"),
                .init(path: "notes[1].id", from: "7", to: "\"7\""),
                .init(path: "notes[1].kind", from: "\"-0\"", to: "0"),
                .init(path: "author.age", from: "36", to: "\"36\""),
            ])
        // Inside a note that was dropped: not listed as coerced (it went with its record).
        #expect(salvage.droppedRecords.map(\.path) == ["notes[2]"])
        #expect(salvage.droppedRecords[0].reason.contains("notes[2].tags[0]"), "\(salvage.droppedRecords[0])")
    }

    @Test(arguments: [
        ("a word", #""one""#), ("a fraction", #""1.5""#), ("a plus sign", #""+1""#), ("spaces", #"" 1""#),
        ("too large", #""99999999999999999999""#), ("empty", #""""#), ("a bool", "true"),
    ])
    func nothingElseIsConverted(name: String, kind: String) throws {
        let text =
            #"{"notes": [{"id": "a", "title": "A", "kind": 0, "tags": []}, "#
            + #"{"id": "b", "title": "B", "kind": \#(kind), "tags": []}], "author": {"name": "", "age": ""}}"#
        let (loaded, directory, _) = try load(text)
        defer { directory.remove() }
        #expect(loaded.model.notes.map(\.id) == ["a"], "\(name)")
        let salvage = try #require(loaded.report.salvage)
        #expect(salvage.coercedFields.isEmpty)
        #expect(salvage.droppedRecords.map(\.path) == ["notes[1]"])
        #expect(salvage.droppedRecords.first?.id == "b")
    }

    @Test func recordsThatCannotBeReadAreDroppedAndListed() throws {
        let text = Self.notebook([
            Self.note(0), #"{"title": "no id", "kind": "text", "tags": []}"#, "5", "null", Self.note(4),
            #"{"id": {"nested": true}, "title": 1}"#,
        ])
        let (loaded, directory, _) = try load(text)
        defer { directory.remove() }
        #expect(loaded.model.notes.map(\.id) == ["n0", "n4"])
        let salvage = try #require(loaded.report.salvage)
        #expect(salvage.droppedRecords.map(\.path) == ["notes[1]", "notes[2]", "notes[3]", "notes[5]"])
        #expect(salvage.droppedRecords.map(\.id) == [nil, nil, nil, nil])
        #expect(salvage.droppedRecords[0].reason.contains("missing key notes[1].id"), "\(salvage.droppedRecords[0])")
        #expect(salvage.details.count == 4)
        #expect(salvage.summary == "4 records dropped, 0 fields coerced, 0 fields defaulted")
    }

    @Test func salvageThenMigrateFromTheOldestVersionThenRepair() throws {
        let text = #"""
            {"notes": [
              {"id": "n1", "title": "Groceries", "kind": 1, "tags": ["home"], "color": "yellow"},
              {"id": "n2", "title": "Broken", "kind": [1], "tags": []},
              {"id": "n1", "title": "Again", "kind": 0, "tags": []}
            ], "author": {"name": "Ada Lovelace", "age": 36, "pronouns": "she/her"}, "theme": {"dark": true}}
            """#
        let (loaded, directory, file) = try load(text)
        defer { directory.remove() }
        #expect(loaded.report.source == .salvaged)
        #expect(loaded.report.storedVersion == 1)
        #expect(loaded.report.stepsApplied == [1...2, 2...3, 3...4])
        #expect(loaded.model.notes.map(\.id) == ["n1", "n1-dup1"])
        #expect(loaded.report.repairs == ["note n1 repeated at index 1: renamed n1-dup1"])
        #expect(loaded.model.author.givenName == "Ada" && loaded.model.author.familyName == "Lovelace")
        // Unknown fields survive the salvage and the migration.
        #expect(loaded.model.unknownFields.values["theme"] == .object(["dark": .bool(true)]))
        #expect(loaded.model.notes[0].unknownFields.values["color"] == .string("yellow"))
        #expect(loaded.model.author.unknownFields.values["pronouns"] == .string("she/her"))
        #expect(loaded.report.unknownKeysKept["notes[].color"] == 1)
        // A salvage keeps the original as the quarantined copy; no second pre-migration backup of the same bytes.
        try file.save(loaded.model)
        #expect(try directory.names() == [".notebook.json.lock", "notebook.json", Self.keptName])
    }

    @Test func theOtherPoliciesDoNotSalvage() throws {
        let text = Self.notebook([Self.note(0), Self.note(1, ["title": "false"])])
        let (quarantined, directory, _) = try load(text, configuration: StateFileConfiguration())
        defer { directory.remove() }
        #expect(quarantined.report.source == .quarantined)
        #expect(quarantined.report.salvage == nil)
        #expect(quarantined.model.notes.isEmpty)

        let refusing = try TemporaryDirectory()
        defer { refusing.remove() }
        try refusing.write("notebook.json", text)
        let file = try notebookFile(refusing, configuration: StateFileConfiguration(corruptFilePolicy: .refuse))
        #expect(throws: StateStoreError.self) { try file.load() }
        #expect(try refusing.names() == [".notebook.json.lock", "notebook.json"])
    }

    @Test func aReadOnlyLoadSalvagesWithoutKeepingACopyOrWriting() throws {
        let text = Self.notebook([Self.note(0), Self.note(1, ["title": "false"])])
        let (loaded, directory, file) = try load(
            text, configuration: StateFileConfiguration(corruptFilePolicy: .salvage, locking: .none))
        defer { directory.remove() }
        #expect(loaded.report.source == .salvaged)
        #expect(loaded.report.salvage?.originalKeptAt == nil)
        #expect(try directory.names() == ["notebook.json"])
        #expect(throws: StateStoreError.self) { try file.save(loaded.model) }
    }

    @Test(arguments: [
        ("not JSON", "this is not json", "unexpected character 'h'"),
        ("truncated", #"{"version": 4, "notes": [{"id": "n1", "tit"#, "line 1, column"),
        (
            "version as text", #"{"version": "4", "notes": [], "author": {"givenName": "", "familyName": ""}}"#,
            #"the version key "version" holds the string "4", not a whole number"#
        ),
        (
            "version as a fraction", #"{"version": 1.5, "notes": [], "author": {"name": "", "age": ""}}"#,
            #"the version key "version" holds 1.5, which is not a whole number"#
        ),
        (
            "a root field", #"{"version": 4, "minReaderVersion": 4, "notes": [], "author": {"givenName": []}}"#,
            "salvage failed"
        ),
        (
            "notes not an array", #"{"version": 4, "minReaderVersion": 4, "notes": {}, "author": {}}"#,
            "wrong type at notes"
        ),
        ("failed validation", Self.notebook([Self.note(0, ["title": "\"\""])]), "validation failed"),
    ])
    func whatCannotBeSalvagedIsQuarantined(name: String, text: String, reason: String) throws {
        let (loaded, directory, _) = try load(text)
        defer { directory.remove() }
        #expect(loaded.report.source == .quarantined, "\(name)")
        #expect(loaded.report.quarantine?.policy == .salvage)
        let stated = loaded.report.quarantine?.reason ?? ""
        #expect(stated.contains(reason), "\(stated)")
        #expect(try directory.read(Self.keptName) == Data(text.utf8))
        #expect(loaded.model.notes.isEmpty)
    }

    @Test func aCleanFileIsNotSalvaged() throws {
        let (loaded, directory, _) = try load(Self.notebook((0..<10).map { Self.note($0) }))
        defer { directory.remove() }
        #expect(loaded.report.source == .file)
        #expect(loaded.report.salvage == nil)
        #expect(try directory.names() == [".notebook.json.lock", "notebook.json"])
    }

    @Test func theCodecSalvagesWithoutAFile() throws {
        let codec = StateCodec(schema: try NotebookSchema.make())
        let data = Data(Self.notebook([Self.note(0, ["tags": "7"]), Self.note(1)]).utf8)
        #expect(throws: StateDecodingError.self) { try codec.decode(data) }
        #expect(throws: StateDecodingError.self) { try codec.decode(data, salvaging: false) }
        let decoded = try codec.decode(data, salvaging: true)
        #expect(decoded.model.notes.map(\.id) == ["n1"])
        #expect(decoded.salvage?.droppedRecords.map(\.path) == ["notes[0]"])
        #expect(decoded.salvage?.originalKeptAt == nil)
        #expect(try codec.decode(Data(Self.notebook([Self.note(0)]).utf8), salvaging: true).salvage == nil)
    }

    @Test func aDuplicateKeyDropsTheRecordThatHoldsIt() throws {
        let text = Self.notebook([Self.note(0), #"{"id":"n1","title":"A","title":"B","kind":"text","tags":[]}"#])
        let (loaded, directory, _) = try load(text)
        defer { directory.remove() }
        #expect(loaded.model.notes.map(\.id) == ["n0"])
        let salvage = try #require(loaded.report.salvage)
        #expect(salvage.reason == #"duplicate key "title" in notes[1]"#)
        #expect(
            salvage.droppedRecords == [.init(path: "notes[1]", id: "n1", reason: #"duplicate key "title" in notes[1]"#)]
        )
    }

    @Test func aDuplicateKeyOutsideAnyRecordIsNotSalvagedAndAStrictLoadNamesIt() throws {
        let text =
            #"{"version":4,"minReaderVersion":4,"notes":[],"author":{"givenName":"A","givenName":"B","familyName":""}}"#
        let (loaded, directory, _) = try load(text)
        defer { directory.remove() }
        #expect(loaded.report.source == .quarantined)
        #expect(
            loaded.report.quarantine?.reason
                == #"duplicate key "givenName" in author; salvage failed: duplicate key "givenName" in author "#
                + "is not inside a record that can be dropped")
        let codec = StateCodec(schema: try NotebookSchema.make())
        #expect(throws: StateDecodingError.corrupt(reason: #"duplicate key "givenName" in author"#)) {
            try codec.decode(Data(text.utf8))
        }
    }

    @Test(arguments: [
        (
            "invalid UTF-8",
            Data(#"{"version":4,"notes":[],"author":{"givenName":""#.utf8) + Data([0xC3, 0x28])
                + Data(#"","familyName":""}}"#.utf8), "invalid UTF-8 at byte 47 in author.givenName"
        ),
        (
            "too deep", Data(("{\"version\":4,\"notes\":" + String(repeating: "[", count: 600)).utf8),
            "nested deeper than 512 levels at notes"
        ),
        ("version too large", Data(#"{"version":1e30,"notes":[]}"#.utf8), #"the version key "version" holds 1"#),
    ])
    func aFileThatIsNotJSONSaysWhy(name: String, data: Data, reason: String) throws {
        let codec = StateCodec(schema: try NotebookSchema.make())
        #expect(throws: StateDecodingError.self) { try codec.decode(data, salvaging: true) }
        do {
            _ = try codec.decode(data, salvaging: true)
        } catch {
            #expect(error.description.contains(reason), "\(name): \(error.description)")
            #expect(!error.description.contains("The given data was not valid JSON"))
        }
    }

    @Test func aNewerCompatibleFileIsSalvagedAndKeepsItsVersion() throws {
        let text =
            #"{"version":5,"minReaderVersion":4,"notes":["# + Self.note(0) + ","
            + Self.note(1, ["kind": "7"]) + #"],"author":{"givenName":"A","familyName":"B"},"v5Only":true}"#
        let (loaded, directory, file) = try load(text)
        defer { directory.remove() }
        #expect(loaded.report.source == .salvaged && loaded.report.isNewerCompatible)
        #expect(loaded.model.notes.map(\.id) == ["n0"])
        try file.save(loaded.model)
        let saved = try jsonObject(try directory.read("notebook.json"))
        #expect(saved["version"] as? Int == 5 && saved["minReaderVersion"] as? Int == 4)
        #expect(saved["v5Only"] as? Bool == true)
    }

    @Test func halfTheRecordsBadAndHalfWithDuplicateKeys() throws {
        let notes = (0..<10_000).map { index -> String in
            switch index % 4 {
            case 1: Self.note(index, ["title": "[]"])
            case 3: #"{"id":"n\#(index)","title":"A","title":"B","kind":"text","tags":[]}"#
            default: Self.note(index)
            }
        }
        let codec = StateCodec(schema: try NotebookSchema.make())
        let decoded = try codec.decode(Data(Self.notebook(notes).utf8), salvaging: true)
        #expect(decoded.model.notes.count == 5_000)
        let dropped = try #require(decoded.salvage?.droppedRecords)
        #expect(dropped.count == 5_000)
        #expect(dropped.map(\.path) == (0..<10_000).filter { $0 % 2 == 1 }.map { "notes[\($0)]" })
        #expect(dropped[1].reason == #"duplicate key "title" in notes[3]"#)
    }
}
