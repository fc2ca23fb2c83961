import Foundation
import StateStore
import StateStoreTesting
import TestSupport
import Testing

@testable import WorkspaceSecrets

@Suite("Fixtures of every shipped version of secrets.json.enc")
struct FixtureTests {
    @Test func everyShippedVersionPassesTheFixtureVerifier() throws {
        let results = try FixtureVerifier(schema: try SecretsSchema.make()).verifyDirectory(Fixtures.versions)
        #expect(results.map(\.name) == ["v1.json", "v2.json"])
        #expect(results.map(\.storedVersion) == [1, 2])
    }

    @Test(arguments: ["unknown-fields.json", "newer-compatible.json"])
    func loadableEdgeCasesPassTheFixtureVerifier(name: String) throws {
        let result = try FixtureVerifier(schema: try SecretsSchema.make())
            .verifyFile(Fixtures.edge.appendingPathComponent(name))
        #expect(result.name == name)
    }

    @Test func theIncompatibleNewerFixtureIsRefused() throws {
        #expect(throws: FixtureFailure.self) {
            try FixtureVerifier(schema: try SecretsSchema.make())
                .verifyFile(Fixtures.edge.appendingPathComponent("newer-incompatible.json"))
        }
    }

    @Test func versionOneMigratesToTwoWithNoTokensAndTheSameInstallation() throws {
        let codec = StateCodec(schema: try SecretsSchema.make())
        let decoded = try codec.decode(try Fixtures.data("versions/v1.json"))
        #expect(decoded.stepsApplied == [1...2])
        #expect(decoded.fieldsDefaulted == ["tokens": 1])
        #expect(decoded.model.tokens.isEmpty)
        #expect(decoded.model.installation.id == UUID(uuidString: "6f1c2b9e-4d3a-4e8f-9a7b-2c5d8e1f0a34"))
        #expect(decoded.model.installation.firstRelease == "0.1.0")
        let saved = try jsonObject(try codec.encode(decoded.model))
        #expect(saved["version"] as? Int == 2 && saved["minReaderVersion"] as? Int == 2)
        let installation = try #require(saved["installation"] as? [String: Any])
        #expect(installation["id"] as? String == "6f1c2b9e-4d3a-4e8f-9a7b-2c5d8e1f0a34", "ids are written lower case")
        #expect(installation["firstStartedAt"] as? String == "2026-03-14T09:26:53Z")
    }

    @Test func versionTwoKeepsTokensAndUnknownScopesAndFields() throws {
        let codec = StateCodec(schema: try SecretsSchema.make())
        let v2 = try codec.decode(try Fixtures.data("versions/v2.json")).model
        #expect(v2.tokens.map(\.id) == ["0a1b2c3d4e5f", "ffeeddccbbaa"])
        #expect(v2.tokens[0].lastUsedAt != nil && v2.tokens[0].revokedAt == nil && v2.tokens[0].scope == .write)
        #expect(v2.tokens[1].isRevoked && v2.tokens[1].scope == .read)
        let edge = try codec.decode(try Fixtures.data("edge/unknown-fields.json"))
        #expect(edge.model.tokens[0].scope.rawValue == "admin" && !edge.model.tokens[0].scope.isKnown)
        #expect(
            Set(edge.unknownKeysKept.keys) == ["policy", "installation.hostname", "tokens[].expiresAt"],
            "\(edge.unknownKeysKept)")
        let saved = String(decoding: try codec.encode(edge.model), as: UTF8.self)
        #expect(saved.contains(#""expiresAt":"2027-04-01T08:00:00Z""#) && saved.contains(#""scope":"admin""#))
    }
}
