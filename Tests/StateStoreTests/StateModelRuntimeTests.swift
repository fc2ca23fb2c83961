import Foundation
import StateModel
import StateStore
import Testing

// Models declared only for these tests: every shape of property @StateModel handles, nested three deep.

/// How a shelf shows its items.
struct ShelfStyle: ExtensibleEnum {
    let rawValue: String
    init(rawValue: String) { self.rawValue = rawValue }
    static let grid = ShelfStyle(rawValue: "grid")
    static let knownValues: [ShelfStyle] = [.grid]
}

@StateModel
struct Item: Sendable, Equatable {
    var id: String
    var count: Int = 1
    var unknownFields = UnknownFields()
}

@StateModel
struct Shelf: Sendable, Equatable {
    @StateKey("shelf_name") var name: String
    var style: ShelfStyle
    var items: [Item] = []
    var note: String?
    @StateWritesNull var removedAt: Date?
    var unknownFields = UnknownFields()
}

@StateModel
struct Library: Sendable, Equatable {
    var shelves: [Shelf]
    var owner: String = "nobody"
    var unknownFields = UnknownFields()
}

/// Read only: a frozen version type.
@StateModel
struct LibraryV1: Decodable, Sendable {
    var shelves: [String]
    var unknownFields: UnknownFields
}

/// Declares no UnknownFields: the macro gives it one, so undeclared keys are kept all the same (issue 41).
@StateModel
struct Plain: Sendable, Equatable {
    var x: Int
}

/// Opts out: undeclared keys are dropped (and a load counts them).
@StateModel(unknownFields: .drop)
struct Dropping: Sendable, Equatable {
    var x: Int
}

private func schema() throws -> StateSchema<Library> {
    try StateSchema<Library>(
        currentVersion: 2,
        migrations: [
            MigrationStep(from: 1, LibraryV1.self, to: Library.self) { old, _ in
                Library(
                    shelves: old.shelves.map { Shelf(name: $0, style: .grid) }, unknownFields: old.unknownFields)
            }
        ],
        initial: { Library(shelves: []) })
}

private func object(_ data: Data) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

@Suite struct StateModelRuntimeTests {
    @Test func missingAndNullDefaultedFieldsTakeTheirDefaultAndAreRecordedByPath() throws {
        let file = #"""
            {"version":2,"shelves":[
              {"shelf_name":"a","style":"grid","items":[{"id":"i1"},{"id":"i2","count":null},{"id":"i3","count":4}]},
              {"shelf_name":"b","style":"grid"}]}
            """#
        let decoded = try StateCodec(schema: try schema()).decode(Data(file.utf8))
        let library = decoded.model
        #expect(library.owner == "nobody")
        #expect(library.shelves[0].items.map(\.count) == [1, 1, 4])
        #expect(library.shelves[1].items.isEmpty)
        #expect(
            decoded.fieldsDefaulted == ["owner": 1, "shelves[].items[].count": 2, "shelves[].items": 1])
        #expect(decoded.unknownKeysKept.isEmpty)
    }

    @Test func aDefaultedFieldOfTheWrongTypeIsStillAnError() throws {
        let file = #"{"version":2,"shelves":[{"shelf_name":"a","style":"grid","items":[{"id":"i","count":"x"}]}]}"#
        #expect(throws: StateDecodingError.self) { try StateCodec(schema: try schema()).decode(Data(file.utf8)) }
    }

    @Test func aMissingRequiredKeyIsNamedByItsStoredKey() throws {
        let file = #"{"version":2,"shelves":[{"style":"grid"}]}"#
        let error = try #require(throws: StateDecodingError.self) {
            try StateCodec(schema: try schema()).decode(Data(file.utf8))
        }
        #expect(error.description.contains("shelf_name"), "\(error.description)")
    }

    @Test func unknownFieldsAreKeptAtEveryLevelAndWrittenBack() throws {
        let file = #"""
            {"version":2,"minReaderVersion":2,"future":{"a":[1,2.50,"x"]},"owner":"me","shelves":[
              {"shelf_name":"a","style":"shelf-of-the-future","colour":"teal","removedAt":null,
               "items":[{"id":"i","count":2,"weight":12345678901234567890}]}]}
            """#
        let codec = StateCodec(schema: try schema())
        let decoded = try codec.decode(Data(file.utf8))
        #expect(
            decoded.unknownKeysKept == ["future": 1, "shelves[].colour": 1, "shelves[].items[].weight": 1])
        #expect(decoded.model.shelves[0].style.isKnown == false)
        let saved = try object(try codec.encode(decoded.model))
        #expect((saved["future"] as? [String: Any])?["a"] as? [Any] != nil)
        let shelf = try #require((saved["shelves"] as? [[String: Any]])?.first)
        #expect(shelf["colour"] as? String == "teal")
        #expect(shelf["style"] as? String == "shelf-of-the-future")
        #expect(shelf["shelf_name"] as? String == "a")
        #expect(shelf["name"] == nil)
        let item = try #require((shelf["items"] as? [[String: Any]])?.first)
        #expect(item["weight"] != nil)
        // Exact numbers survive: the kept value is written as it was read.
        #expect(String(decoding: try codec.encode(decoded.model), as: UTF8.self).contains("12345678901234567890"))
        // The root's own keys are the store's, never captured as unknown.
        #expect(decoded.model.unknownFields.values["version"] == nil)
        #expect(decoded.model.unknownFields.values["minReaderVersion"] == nil)
    }

    @Test func aDeclaredKeyWinsOverACapturedOneOfTheSameName() throws {
        var item = Item(id: "declared")
        item.unknownFields = UnknownFields(["id": .string("captured"), "extra": .bool(true)])
        let written = try object(try JSONEncoder().encode(item))
        #expect(written["id"] as? String == "declared")
        #expect(written["extra"] as? Bool == true)
    }

    /// A captured field under a declared optional's key is not written in its place when the optional is `nil`
    /// (a migration step carries old unknown fields into a version that declares the key; found by fuzzing).
    @Test func aCapturedFieldNeverStandsInForANilDeclaredOne() throws {
        var shelf = Shelf(name: "s", style: .grid)
        shelf.unknownFields = UnknownFields([
            "note": .string("captured"), "removedAt": .string(""), "kept": .bool(true),
        ])
        let written = try object(try JSONEncoder().encode(shelf))
        #expect(written.keys.contains("note") == false)
        #expect(written["removedAt"] is NSNull)
        #expect(written["kept"] as? Bool == true)
    }

    @Test func nilIsLeftOutUnlessTheFieldWritesNull() throws {
        let shelf = Shelf(name: "s", style: .grid)
        let written = try object(try JSONEncoder().encode(shelf))
        #expect(written.keys.contains("note") == false)
        #expect(written.keys.contains("removedAt"))
        #expect(written["removedAt"] is NSNull)
        #expect(written["items"] as? [Any] != nil, "a defaulted field is written explicitly")
    }

    @Test func aFrozenVersionIsReadOnlyAndMigrates() throws {
        let file = #"{"shelves":["a","b"],"kept":1}"#
        let decoded = try StateCodec(schema: try schema()).decode(Data(file.utf8))
        #expect(decoded.stepsApplied == [1...2])
        #expect(decoded.model.shelves.map(\.name) == ["a", "b"])
        #expect(decoded.model.unknownFields.values["kept"] == .integer(1))
    }

    @Test func aModelWithoutAnUnknownFieldsPropertyKeepsUndeclaredKeysAllTheSame() throws {
        let plain = try JSONDecoder().decode(Plain.self, from: Data(#"{"x":1,"y":2}"#.utf8))
        #expect(plain.unknownFields.values == ["y": .integer(2)])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(plain), as: UTF8.self) == #"{"x":1,"y":2}"#)
    }

    @Test func aModelThatDropsUndeclaredKeysWritesOnlyItsOwn() throws {
        let dropping = try JSONDecoder().decode(Dropping.self, from: Data(#"{"x":1,"y":2}"#.utf8))
        #expect(dropping == Dropping(x: 1))
        #expect(String(decoding: try JSONEncoder().encode(dropping), as: UTF8.self) == #"{"x":1}"#)
    }

    @Test func outsideAStateCodecLoadDefaultsAreGivenAndRecordedNowhere() throws {
        let item = try JSONDecoder().decode(Item.self, from: Data(#"{"id":"i"}"#.utf8))
        #expect(item == Item(id: "i", count: 1))
    }
}
