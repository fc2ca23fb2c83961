import Foundation
import StateStore
import TestSupport
import Testing

@testable import WorkspaceModel

@Suite("Favorite dates with fractional seconds")
struct FractionalSecondsTests {
    @Test func fractionalSecondsAndOffsetsLoadAsTheInstantTheyName() throws {
        let decoded = try decodeFixture("edge/fractional-seconds.json")
        #expect(decoded.repairs.isEmpty && decoded.fieldsDefaulted.isEmpty)
        #expect(
            decoded.model.favorites.map { $0.createdAt?.timeIntervalSince1970 } == [
                1_714_557_600.5, 1_714_557_600.123456, 1_714_557_600,
            ])
    }

    @Test func aSaveKeepsTheFractionAndWritesWholeSecondsAsBefore() throws {
        let codec = try workspaceCodec()
        let decoded = try decodeFixture("edge/fractional-seconds.json")
        let saved = try jsonObject(try codec.encode(decoded.model))
        let dates = try #require(saved["favorites"] as? [[String: Any]]).map { $0["createdAt"] as? String }
        #expect(dates == ["2024-05-01T10:00:00.5Z", "2024-05-01T10:00:00.123456Z", "2024-05-01T10:00:00Z"])
        #expect(try codec.decode(try codec.encode(decoded.model)).model == decoded.model)
    }
}
