import Foundation
import StateStore
import StateStoreTesting
import TestSupport
import Testing

@testable import WorkspaceModel
@testable import WorkspaceStorage

@Suite("Fixtures of every shipped version and the edge cases")
struct FixtureTests {
    @Test func everyShippedVersionPassesTheFixtureVerifier() throws {
        let results = try FixtureVerifier(schema: try WorkspaceSchema.make()).verifyDirectory(Fixtures.versions)
        #expect(results.map(\.name) == ["v1.json", "v2.json", "v3.json", "v4.json"])
        #expect(results.map(\.storedVersion) == [1, 2, 3, 4])
    }

    @Test(arguments: [
        "unknown-enum-values.json", "unknown-keys-everywhere.json", "upper-case-uuids.json",
        "bad-viewmode-number.json", "dangling-active-project.json", "focused-tab-out-of-range.json",
        "duplicate-ids.json", "newer-compatible.json", "fractional-seconds.json", "missing-defaulted-fields.json",
    ])
    func everyLoadableEdgeCasePassesTheFixtureVerifier(name: String) throws {
        let verifier = FixtureVerifier(schema: try WorkspaceSchema.make())
        let result = try verifier.verifyFile(Fixtures.edge.appendingPathComponent(name))
        #expect(result.name == name)
    }

    @Test func theIncompatibleNewerFixtureIsRefusedByTheVerifier() throws {
        let verifier = FixtureVerifier(schema: try WorkspaceSchema.make())
        #expect(throws: FixtureFailure.self) {
            try verifier.verifyFile(Fixtures.edge.appendingPathComponent("newer-incompatible.json"))
        }
    }

    @Test func savedFilesAreVersionFourReadableOnlyByVersionFour() throws {
        let codec = try workspaceCodec()
        let saved = try jsonObject(try codec.encode(try decodeFixture("versions/v1.json").model))
        #expect(saved["version"] as? Int == 4)
        #expect(saved["minReaderVersion"] as? Int == 4)
    }
}
