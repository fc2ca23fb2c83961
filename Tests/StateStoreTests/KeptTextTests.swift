import Foundation
import StateModel
import Testing

@testable import StateStore

/// A one-version model that keeps unknown fields at its root and in its records.
@StateModel
private struct TextShelf: Sendable, Equatable {
    var name: String
    var items: [Item] = []
    var unknownFields = UnknownFields()

    @StateModel
    struct Item: Sendable, Equatable {
        var id: Int
        var unknownFields = UnknownFields()
    }
}

/// Issue 29: an unknown field the direct reader keeps is written back as the exact JSON text it was read as.
@Suite("Unknown fields kept as their JSON text")
struct KeptTextTests {
    /// Unknown values whose text a value would not give back: each key's text as it is in the file.
    private static let spelled: KeyValuePairs<String, String> = [
        "fraction": "1.50",
        "exponent": "1e2",
        "long": "123456789012345678901234567890123456789012345",
        "escaped": #""caf\u00e9 \/ \t""#,
        "spaced": #"{ "b" : [1.0, 2E0 ],"a":null }"#,
        "negativeZero": "-0",
        "plain": #""x""#,
    ]

    private static let file: Data = {
        let members = spelled.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ",\n  ")
        return Data(
            """
            {"version": 1, "name": "n", "items": [{"id": 1, "note": 0.10 , "tags" :[ ]}],
              \(members)}
            """.utf8)
    }()

    private func codec(readsDirectly: Bool = true, writesDirectly: Bool = true) throws -> StateCodec<TextShelf> {
        var codec = StateCodec(
            schema: try StateSchema<TextShelf>(currentVersion: 1, initial: { TextShelf(name: "") }))
        codec.readsDirectly = readsDirectly
        codec.writesDirectly = writesDirectly
        return codec
    }

    @Test(arguments: [true, false])
    func aDirectReadWritesEveryUnknownFieldBackByteForByte(writesDirectly: Bool) throws {
        let model = try codec().decode(Self.file).model
        let saved = String(decoding: try codec(writesDirectly: writesDirectly).encode(model), as: UTF8.self)
        for (key, text) in Self.spelled {
            #expect(model.unknownFields.jsonText(forKey: key) == text)
            #expect(saved.contains("\"\(key)\":\(text)"), "\(key) not kept as \(text) in \(saved)")
        }
        #expect(saved.contains(#"{"id":1,"note":0.10,"tags":[ ]}"#), "\(saved)")
    }

    @Test func theCodablePathReadsEqualValuesAndWritesThemAsValues() throws {
        let direct = try codec().decode(Self.file)
        let codable = try codec(readsDirectly: false).decode(Self.file)
        #expect(direct.model == codable.model)
        #expect(direct.unknownKeysKept == codable.unknownKeysKept)
        #expect(codable.model.unknownFields.jsonText(forKey: "fraction") == nil)
        let saved = String(decoding: try codec().encode(codable.model), as: UTF8.self)
        #expect(saved.contains(#""fraction":1.5,"#) && saved.contains(#""exponent":100,"#), "\(saved)")
    }

    @Test func aChangedValueIsWrittenAsItsValueAndTheOthersKeepTheirText() throws {
        var model = try codec().decode(Self.file).model
        model.unknownFields.values["fraction"] = .decimal(Decimal(string: "2.5")!)
        model.unknownFields.values["exponent"] = nil
        model.items[0].unknownFields.values["tags"] = .array([.string("t")])
        #expect(model.unknownFields.jsonText(forKey: "fraction") == nil)
        #expect(model.unknownFields.jsonText(forKey: "exponent") == nil)
        let saved = String(decoding: try codec().encode(model), as: UTF8.self)
        #expect(saved.contains(#""fraction":2.5,"#), "\(saved)")
        #expect(!saved.contains("exponent"), "\(saved)")
        #expect(saved.contains(#"{"id":1,"note":0.10,"tags":["t"]}"#), "\(saved)")
        #expect(saved.contains(#""long":123456789012345678901234567890123456789012345"#), "\(saved)")
    }

    @Test func aFieldKeepsItsTextUntilItsValueChanges() throws {
        var fields = try codec().decode(Self.file).model.unknownFields
        fields["fraction"] = .decimal(Decimal(string: "1.5")!)
        #expect(fields.jsonText(forKey: "fraction") == "1.50", "setting the value held dropped the text")
        fields["fraction"] = .integer(2)
        #expect(fields.jsonText(forKey: "fraction") == nil)
        #expect(fields.removeValue(forKey: "exponent") == .integer(100))
        #expect(fields.jsonText(forKey: "exponent") == nil && fields["exponent"] == nil)
        var values = fields.values
        values["plain"] = .string("y")
        fields.values = values
        #expect(fields.jsonText(forKey: "long") == Self.spelled.first { $0.key == "long" }?.value)
        #expect(fields.jsonText(forKey: "plain") == nil && fields["plain"] == .string("y"))
    }

    @Test func aTextKeptIsNotPartOfTheValue() throws {
        let read = try codec().decode(Self.file).model.unknownFields
        var set = UnknownFields(read.values)
        #expect(set == read && set.hashValue == read.hashValue)
        #expect(set.jsonText(forKey: "fraction") == nil)
        set.values["fraction"] = .integer(1)
        #expect(set != read)
    }

    @Test func aValueTheCodablePathRefusesIsRefusedAndNotKeptAsText() throws {
        let file = Data(#"{"version": 1, "name": "n", "huge": 1e400}"#.utf8)
        #expect(throws: StateDecodingError.self) { try codec().decode(file) }
        #expect(throws: StateDecodingError.self) { try codec(readsDirectly: false).decode(file) }
    }
}
