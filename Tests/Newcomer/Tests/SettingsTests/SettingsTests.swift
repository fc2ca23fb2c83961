import Foundation
import Settings
import StateStore
import StateStoreTesting
import Testing

@Test func everyShippedVersionLoadsRoundTripsAndMigratesOnce() throws {
    let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!  // v1, v2 and a newer v3
    let results = try FixtureVerifier(schema: try settingsSchema()).verifyDirectory(fixtures)
    #expect(results.map(\.storedVersion) == [1, 2, 3])
    #expect(results.map(\.decoded.model.theme) == ["dark", "dark", "dark"])
    #expect(results.map(\.decoded.model.fontSize) == [12, 14, 14])
    #expect(results[0].decoded.fieldsDefaulted == ["fontSize": 1])
    #expect(results[2].decoded.model.unknownFields.values == ["cursor": .string("block")])  // kept, written back
}

@Test func aVersion2FileWithoutAFontSizeGetsTheDefault() throws {
    let codec = StateCodec(schema: try settingsSchema())
    let decoded = try codec.decode(Data(#"{"theme":"dark","version":2}"#.utf8))
    #expect(decoded.model == Settings(theme: "dark", fontSize: 12))
    #expect(decoded.fieldsDefaulted == ["fontSize": 1])
}
