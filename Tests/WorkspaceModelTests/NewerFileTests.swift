import Foundation
import StateStore
import TestSupport
import Testing

@testable import WorkspaceModel
@testable import WorkspaceStorage

@Suite("Files from newer releases")
struct NewerFileTests {
    @Test func aNewerFileThatAllowsVersionFourLoadsWithEverythingKept() throws {
        let decoded = try decodeFixture("edge/newer-compatible.json")
        #expect(decoded.isNewerCompatible)
        #expect(decoded.storedVersion == 5)
        #expect(decoded.stepsApplied.isEmpty)
        #expect(decoded.model.projects[0].layout.rawValue == "hexagonal")
        #expect(decoded.model.projects[0].panes[0].viewMode.rawValue == "timeline")
        #expect(
            decoded.unknownKeysKept == [
                "sync": 1, "projects[].pinned": 1, "projects[].panes[].zoom": 1, "owner.avatar": 1,
            ])
        let saved = try jsonObject(
            try workspaceCodec().encode(decoded.model, version: 5, minReaderVersion: decoded.storedMinReaderVersion))
        #expect(saved["version"] as? Int == 5)
        #expect(saved["minReaderVersion"] as? Int == 4)
        #expect((saved["sync"] as? [String: Any])?["enabled"] as? Bool == true)
    }

    @Test func aNewerFileThatNeedsANewerReaderIsRefused() throws {
        #expect(throws: StateDecodingError.newerVersion(stored: 5, minReaderVersion: 5, current: 4)) {
            try decodeFixture("edge/newer-incompatible.json")
        }
    }

    @Test func theIncompatibleFileIsLeftByteIdenticalByTheStateFile() throws {
        let directory = FileManager.default.temporaryDirectory.path + "/workspace-model-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/" + WorkspaceSchema.fileName
        let original = try Fixtures.data("edge/newer-incompatible.json")
        try original.write(to: URL(fileURLWithPath: path))
        let file = StateFile(path: path, schema: try WorkspaceSchema.make())
        #expect(throws: StateStoreError.self) { try file.load() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    }
}
