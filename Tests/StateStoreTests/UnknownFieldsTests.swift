import Foundation
import StateStore
import StateStoreSample
import Testing

@Suite("Unknown fields and values are kept")
struct UnknownFieldsTests {
    let codec: StateCodec<Notebook>

    init() throws {
        codec = StateCodec(schema: try NotebookSchema.make())
    }

    @Test func unknownKeysAtTheRootAndInNestedRecordsSurviveMigrationAndSave() throws {
        let decoded = try codec.decode(try Fixtures.data("notebook/v1.json"))
        #expect(decoded.unknownKeysKept == ["theme": 1, "notes[].color": 1, "author.pronouns": 1])
        let saved = try jsonObject(try codec.encode(decoded.model))
        let theme = try #require(saved["theme"] as? [String: Any])
        #expect(theme["accent"] as? String == "#ff8800")
        #expect(theme["dark"] as? Bool == true)
        let notes = try #require(saved["notes"] as? [[String: Any]])
        #expect(notes[0]["color"] as? String == "yellow")
        #expect(notes[1]["color"] == nil)
        let author = try #require(saved["author"] as? [String: Any])
        #expect(author["pronouns"] as? String == "she/her")
        #expect(author["name"] == nil, "a renamed key is not kept under its old name")
        #expect(author["age"] == nil, "a removed key is dropped by the step that removes it")
        #expect(saved["version"] as? Int == 4)
        #expect(saved["minReaderVersion"] as? Int == 4)
    }

    @Test func nestedUnknownStructuresAndLargeIntegersSurviveExactly() throws {
        let saved = try codec.encode(try codec.decode(try Fixtures.data("notebook/v3.json")).model)
        let text = String(decoding: saved, as: UTF8.self)
        #expect(text.contains(#""syncToken":9007199254740993"#))
        #expect(text.contains(#""attachments":[{"name":"a.png","size":1024}]"#))
    }

    @Test func unknownEnumValuesAreKeptNotRejected() throws {
        let decoded = try codec.decode(try Fixtures.data("notebook/v4.json"))
        #expect(decoded.model.notes[1].kind == NoteKind(rawValue: "sketch"))
        #expect(!decoded.model.notes[1].kind.isKnown)
        #expect(decoded.model.notes[0].kind.isKnown)
        #expect(String(decoding: try codec.encode(decoded.model), as: UTF8.self).contains(#""kind":"sketch""#))
    }

    @Test func theStoreKeysAreNeverCapturedAsUnknown() throws {
        let decoded = try codec.decode(try Fixtures.data("notebook/v4.json"))
        #expect(decoded.model.unknownFields.isEmpty)
        #expect(decoded.unknownKeysKept.isEmpty)
    }

    @Test func aNewerCompatibleFileLoadsKeepsItsFieldsAndIsWrittenBackAtItsOwnVersion() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("edge/newer-compatible.json"))
        let file = try notebookFile(directory)
        var loaded = try file.load()
        #expect(loaded.report.isNewerCompatible)
        #expect(loaded.report.storedVersion == 5)
        #expect(loaded.report.unknownKeysKept == ["labels": 1, "notes[].priority": 1])
        loaded.model.notes[0].pinned = true
        try file.save(loaded.model)
        let saved = try jsonObject(try directory.read("notebook.json"))
        #expect(saved["version"] as? Int == 5, "a newer release keeps reading it as its own version")
        #expect(saved["minReaderVersion"] as? Int == 4)
        #expect(saved["labels"] as? [String] == ["a", "b"])
        let note = try #require((saved["notes"] as? [[String: Any]])?.first)
        #expect(note["priority"] as? Int == 3)
        #expect(note["pinned"] as? Bool == true)
    }

    @Test func jsonValuesRoundTripEveryKind() throws {
        let text = #"{"a":null,"b":true,"c":-12,"d":1.5,"e":"x","f":[1,"y"],"g":{"h":[]}}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(value), as: UTF8.self) == text)
        guard case .object(let object) = value else {
            Issue.record("not an object")
            return
        }
        #expect(object["c"] == .integer(-12))
        #expect(object["d"] == .double(1.5))
    }
}
