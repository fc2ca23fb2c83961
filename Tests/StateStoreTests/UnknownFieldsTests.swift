import Foundation
import StateStore
import StateStoreSample
import TestSupport
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
        // Read directly, the field keeps the exact text it was written as, spaces and all.
        #expect(text.contains(#""attachments":[{"name": "a.png", "size": 1024}]"#), "\(text)")
        var codable = codec
        codable.readsDirectly = false
        let values = String(
            decoding: try codec.encode(try codable.decode(try Fixtures.data("notebook/v3.json")).model), as: UTF8.self)
        #expect(values.contains(#""attachments":[{"name":"a.png","size":1024}]"#), "\(values)")
    }

    /// Each number as written in the file, the value it loads as, and how it is written back.
    static let numbers: [(text: String, value: JSONValue, saved: String)] = [
        ("9223372036854775807", .integer(.max), "9223372036854775807"),
        ("-9223372036854775808", .integer(.min), "-9223372036854775808"),
        ("-9223372036854775809", .decimal(Decimal(string: "-9223372036854775809")!), "-9223372036854775809"),
        ("18446744073709551615", .unsignedInteger(.max), "18446744073709551615"),
        ("18446744073709551616", .decimal(Decimal(string: "18446744073709551616")!), "18446744073709551616"),
        ("9007199254740993", .integer(9_007_199_254_740_993), "9007199254740993"),
        (
            "123456789012345678901234567890", .decimal(Decimal(string: "123456789012345678901234567890")!),
            "123456789012345678901234567890"
        ),
        ("0.1", .decimal(Decimal(string: "0.1")!), "0.1"),
        ("0.30000000000000004", .decimal(Decimal(string: "0.30000000000000004")!), "0.30000000000000004"),
        ("1.0", .integer(1), "1"),
        ("-0.0", .double(-0.0), "-0"),
        ("0", .integer(0), "0"),
        ("1e300", .double(1e300), "1e+300"),
        ("1.5e-300", .double(1.5e-300), "1.5e-300"),
    ]

    @Test(arguments: numbers)
    func numbersAreKeptExactlyWhereCodableAllows(text: String, value: JSONValue, saved: String) throws {
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(decoded == value)
        if case .double(let double) = value, case .double(let read) = decoded {
            #expect(double.sign == read.sign, "the sign of zero is kept")
        }
        #expect(String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self) == saved)
    }

    @Test func numbersInUnknownFieldsSurviveLoadAndSave() throws {
        let texts = Self.numbers.map(\.text).joined(separator: ",")
        let document =
            #"{"version":4,"minReaderVersion":4,"numbers":["# + texts
            + #"],"notes":[{"id":"n1","title":"T","kind":"text","pinned":false,"tags":[],"size":"#
            + #"18446744073709551615}],"author":{"givenName":"A","familyName":"B"}}"#
        let saved = try codec.encode(try codec.decode(Data(document.utf8)).model)
        let text = String(decoding: saved, as: UTF8.self)
        // Read directly, each number is written back as it was written.
        #expect(text.contains(#""numbers":["# + texts + "]"), "\(text)")
        #expect(text.contains(#""size":18446744073709551615"#))
        #expect(try codec.encode(try codec.decode(saved).model) == saved, "a second load and save changes nothing")
        // Read through `Codable` (a fallback), each is written back by its value.
        var codable = codec
        codable.readsDirectly = false
        let values = try codec.encode(try codable.decode(Data(document.utf8)).model)
        #expect(
            String(decoding: values, as: UTF8.self).contains(
                #""numbers":["# + Self.numbers.map(\.saved).joined(separator: ",") + "]"))
        #expect(try codec.encode(try codable.decode(values).model) == values)
    }

    @Test func aNumberBeyondDoubleIsRefusedAtItsPathNotReplaced() throws {
        let document =
            #"{"version":4,"minReaderVersion":4,"numbers":[1,1e400],"notes":[],"#
            + #""author":{"givenName":"A","familyName":"B"}}"#
        do {
            _ = try codec.decode(Data(document.utf8))
            Issue.record("1e400 was loaded")
        } catch {
            guard case .corrupt(let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(reason.contains("numbers[1]"), "\(reason)")
            #expect(reason.contains("outside the range of Double"), "\(reason)")
        }
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
        #expect(object["d"] == .decimal(1.5))
    }
}
