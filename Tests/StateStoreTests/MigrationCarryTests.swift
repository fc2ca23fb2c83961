import Foundation
import Testing

@testable import StateStore

/// ``MigrationContext/carry(_:to:declaring:)``: an unknown field under a key the new version declares is dropped,
/// counted once per field path in the load report, and no longer listed as kept.
@Suite("Unknown fields a later version declares")
struct MigrationCarryTests {
    struct Item: Decodable {
        var id: String
        var unknownFields: UnknownFields

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            id = try container.decode(String.self, forKey: AnyCodingKey("id"))
            unknownFields = try UnknownFields(from: decoder, knownKeys: Keys.self)
        }

        enum Keys: String, CodingKey { case id }
    }

    struct Old: Decodable {
        var items: [Item]
    }

    struct NewItem: Codable, Equatable {
        var id: String
        var pinned: Bool
        var unknownFields: UnknownFields

        init(id: String, pinned: Bool, unknownFields: UnknownFields) {
            self.id = id
            self.pinned = pinned
            self.unknownFields = unknownFields
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            id = try container.decode(String.self, forKey: .id)
            pinned = try container.decode(Bool.self, forKey: .pinned)
            unknownFields = try UnknownFields(from: decoder, knownKeys: Keys.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            try unknownFields.encode(to: &container, skipping: ["id", "pinned"])
            try container.encode(id, forKey: AnyCodingKey("id"))
            try container.encode(pinned, forKey: AnyCodingKey("pinned"))
        }

        enum Keys: String, CodingKey { case id, pinned }
    }

    struct Current: Codable, Equatable {
        var items: [NewItem]
    }

    static func codec() throws -> StateCodec<Current> {
        let schema = try StateSchema<Current>(
            currentVersion: 2,
            migrations: [
                MigrationStep(from: 1, Old.self, to: Current.self) { old, context in
                    Current(
                        items: old.items.map { item in
                            NewItem(
                                id: item.id, pinned: false,
                                unknownFields: context.carry(item.unknownFields, to: "items[]", declaring: ["pinned"]))
                        })
                }
            ],
            initial: { Current(items: []) })
        return StateCodec(schema: schema)
    }

    @Test func aCollidingFieldIsDroppedAndReportedOnceWithItsCountTheOthersAreKept() throws {
        let file = #"""
            {"items": [{"id": "a", "pinned": true, "color": "red"}, {"id": "b", "pinned": "yes"},
                       {"id": "c", "color": "blue"}, {"id": "d"}]}
            """#
        let decoded = try Self.codec().decode(Data(file.utf8))
        #expect(decoded.storedVersion == 1)
        #expect(
            decoded.model.items.map(\.pinned) == [false, false, false, false], "the step's value, not the captured one")
        #expect(decoded.model.items.allSatisfy { $0.unknownFields.values["pinned"] == nil })
        #expect(
            decoded.model.items.map { $0.unknownFields.values["color"] } == [.string("red"), nil, .string("blue"), nil])
        #expect(decoded.unknownKeysKept == ["items[].color": 2], "pinned is no longer listed as kept")
        #expect(
            decoded.warnings == [
                "items[].pinned: 2 records held it as an unknown field of version 1, which version 2 declares; the "
                    + "migrated value replaced it (the original file still holds it)"
            ])
        let saved = try Self.codec().decode(try Self.codec().encode(decoded.model))
        #expect(saved.model == decoded.model, "what is served is what is saved")
        #expect(saved.warnings.isEmpty)
    }

    @Test func recordsWithoutACollisionAreCarriedUnchangedAndNothingIsReported() throws {
        var context = MigrationContext(fromVersion: 1)
        let fields = UnknownFields(["color": .string("red")])
        #expect(context.carry(fields, to: "items[]", declaring: ["pinned"]) == fields)
        #expect(context.carry(UnknownFields(), to: "items[]", declaring: ["pinned"]).isEmpty)
        #expect(context.carry(UnknownFields(["pinned": .bool(true)]), to: "", declaring: ["pinned"]).isEmpty)
        #expect(context.unknownFieldsReplaced == ["pinned": 1], "the root's fields have no prefix")
        #expect(context.warnings.isEmpty)
    }
}
