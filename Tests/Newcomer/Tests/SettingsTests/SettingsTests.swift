import Foundation
import Settings
import StateStore
import StateStoreTesting
import Testing

@Test func everyShippedVersionLoadsRoundTripsAndMigratesOnce() throws {
    let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!  // v1.json, v2.json
    let results = try FixtureVerifier(schema: try settingsSchema()).verifyDirectory(fixtures)
    #expect(results.map(\.storedVersion) == [1, 2])
    #expect(results[0].decoded.model == Settings(theme: "dark", fontSize: 12))
    #expect(results[0].decoded.fieldsDefaulted == ["fontSize": 1])
}

@Test func aVersion2FileWithoutAFontSizeGetsTheDefault() throws {
    let codec = StateCodec(schema: try settingsSchema())
    let decoded = try codec.decode(Data(#"{"theme":"dark","version":2}"#.utf8))
    #expect(decoded.model == Settings(theme: "dark", fontSize: 12))
    #expect(decoded.fieldsDefaulted == ["fontSize": 1])
}
