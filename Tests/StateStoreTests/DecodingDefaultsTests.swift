import Foundation
import StateStore
import Testing

/// A box whose `count` (default 1) may be missing from a file.
private struct Box: Codable, Sendable, Equatable {
    var label: String
    var count: Int

    private enum CodingKeys: String, CodingKey { case label, count }

    init(label: String, count: Int) {
        self.label = label
        self.count = count
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        label = try container.decode(String.self, forKey: .label)
        count = try container.decode(Int.self, forKey: .count, defaultingTo: 1, in: decoder)
    }
}

/// Version 2: shelves of boxes, plus a `name` the step from version 1 defaults.
private struct Shelves: Codable, Sendable, Equatable {
    var name: String
    var shelves: [[Box]]
}

/// Version 1: shelves of boxes, no name.
private struct ShelvesV1: Decodable, Sendable {
    var shelves: [[Box]]
}

@Suite("Fields given their default while decoding")
struct DecodingDefaultsTests {
    private let codec: StateCodec<Shelves>

    init() throws {
        codec = StateCodec(
            schema: try StateSchema<Shelves>(
                currentVersion: 2,
                migrations: [
                    MigrationStep(from: 1, ShelvesV1.self, to: Shelves.self) { old, context in
                        context.defaulted("name")
                        return Shelves(name: "", shelves: old.shelves)
                    }
                ],
                initial: { Shelves(name: "", shelves: []) }))
    }

    @Test func aMissingOrNullFieldGetsItsDefaultAndIsCountedByPath() throws {
        let decoded = try codec.decode(
            Data(
                #"""
                {"version": 2, "name": "n", "shelves": [
                  [{"label": "a"}, {"label": "b", "count": 5}], [{"label": "c", "count": null}]]}
                """#.utf8))
        #expect(decoded.model.shelves.flatMap { $0 }.map(\.count) == [1, 5, 1])
        #expect(decoded.fieldsDefaulted == ["shelves[][].count": 2])
    }

    @Test func defaultsWhileDecodingAndInStepsAreReportedTogether() throws {
        let decoded = try codec.decode(Data(#"{"shelves": [[{"label": "a"}]]}"#.utf8))
        #expect(decoded.stepsApplied == [1...2])
        #expect(decoded.fieldsDefaulted == ["shelves[][].count": 1, "name": 1])
    }

    @Test func aValueOfTheWrongTypeIsNotReplacedByTheDefault() throws {
        #expect(throws: StateDecodingError.self) {
            try codec.decode(Data(#"{"version": 2, "name": "n", "shelves": [[{"label": "a", "count": "x"}]]}"#.utf8))
        }
    }

    @Test func aPlainDecoderGetsTheDefaultWithoutAReport() throws {
        let box = try JSONDecoder().decode(Box.self, from: Data(#"{"label": "a"}"#.utf8))
        #expect(box == Box(label: "a", count: 1))
    }
}
