import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The one-time import from `legacyStatePath`, end to end through the `workspaced` binary: every case of
/// issue 10 on a real file system, each start a real process.
@Suite("workspaced imports a legacy state file once", .serialized)
struct LegacyImportProcessTests {
    static let imported = "message-id=f1216d6d4c9b4532bd44cf186eddcd26"
    static let refused = "message-id=ff9a4d05bbed4f21b2d9e7011c3cfc15"

    /// A harness whose config points `legacyStatePath` at `<root>/legacy/state.json`.
    final class World {
        let harness: TestDaemon
        var legacyPath: String { harness.root + "/legacy/state.json" }
        var markerPath: String { harness.stateDirectory + "/imported-from-legacy" }

        init() throws {
            harness = try TestDaemon()
            try FileManager.default.createDirectory(
                atPath: harness.root + "/legacy", withIntermediateDirectories: true)
            try harness.writeConfig(#"{"legacyStatePath": "\#(legacyPath)"}"#)
        }

        func writeLegacy(_ data: Data) throws { try data.write(to: URL(fileURLWithPath: legacyPath)) }
        func legacyBytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: legacyPath)) }
        var stateExists: Bool { FileManager.default.fileExists(atPath: harness.statePath) }
        var markerExists: Bool { FileManager.default.fileExists(atPath: markerPath) }

        /// Starts the daemon, waits for READY=1, stops it with SIGTERM and returns what it printed.
        func runOnce(_ name: String) async throws -> String {
            let (process, ready, _) = try await harness.startUntilReadyOrExit(output: name + ".log")
            #expect(ready, "no READY=1: \(process.output)")
            process.send(SIGTERM)
            #expect(await process.waitForExit() == 0, "\(process.output)")
            return process.output
        }
    }

    static func lines(_ output: String, containing text: String) -> [Substring] {
        output.split(separator: "\n").filter { $0.contains(text) }
    }

    @Test func aLegacyFileIsImportedOnceAndNeverTouched() async throws {
        let world = try World()
        let legacy = try WorkspaceFixtures.data("versions/v1.json")
        try world.writeLegacy(legacy)
        let first = try await world.runOnce("first")
        #expect(Self.lines(first, containing: Self.imported).count == 1, "one entry says it was imported: \(first)")
        #expect(Self.lines(first, containing: Self.imported).first?.contains("may be removed") == true)
        #expect(world.stateExists && world.markerExists)
        #expect(try world.legacyBytes() == legacy)
        let marker = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: world.markerPath)))
        let fields = try #require(marker as? [String: Any])
        #expect(fields["source"] as? String == world.legacyPath)
        #expect(fields["size"] as? Int == legacy.count)
        #expect(fields["version"] as? Int == 1)
        #expect((fields["sha256"] as? String)?.count == 64)
        #expect(fields["importedAt"] is String)
        let state = try JSONSerialization.jsonObject(with: world.harness.stateBytes()) as? [String: Any]
        #expect(state?["version"] as? Int == 4)
        #expect(((state?["owner"] as? [String: Any])?["alias"]) as? String == "Ada")

        let stateAfterFirst = try world.harness.stateBytes()
        let second = try await world.runOnce("second")
        #expect(Self.lines(second, containing: Self.imported).isEmpty, "nothing is imported twice")
        #expect(try world.harness.stateBytes() == stateAfterFirst)
        #expect(try world.legacyBytes() == legacy)
    }

    @Test func withoutALegacyFileNothingHappens() async throws {
        let world = try World()
        let output = try await world.runOnce("absent")
        #expect(Self.lines(output, containing: "legacy").isEmpty, "\(output)")
        #expect(!world.markerExists && !world.stateExists)
    }

    @Test func aMarkerWithoutAStateFileStartsEmptyAndWarns() async throws {
        let world = try World()
        try world.writeLegacy(try WorkspaceFixtures.data("versions/v2.json"))
        _ = try await world.runOnce("first")
        try FileManager.default.removeItem(atPath: world.harness.statePath)
        let output = try await world.runOnce("second")
        let warning = Self.lines(output, containing: world.markerPath)
        #expect(warning.count == 1 && warning.first?.contains("not importing it again") == true, "\(output)")
        #expect(Self.lines(output, containing: Self.imported).isEmpty)
        #expect(!world.stateExists, "started empty and wrote nothing")
    }

    @Test(arguments: ["corrupt", "newer"])
    func aCorruptOrNewerLegacyFileIsRefusedUntouchedAndRetried(kind: String) async throws {
        let world = try World()
        let legacy =
            kind == "corrupt"
            ? Data(#"{"version": 2, "projects": [}"#.utf8)
            : Data(#"{"version": 9, "minReaderVersion": 9, "projects": []}"#.utf8)
        try world.writeLegacy(legacy)
        let output = try await world.runOnce("refused")
        let errors = Self.lines(output, containing: Self.refused)
        #expect(errors.count == 1 && errors.first?.contains(world.legacyPath) == true, "\(output)")
        #expect(try world.legacyBytes() == legacy)
        #expect(!world.markerExists && !world.stateExists)
        try world.writeLegacy(try WorkspaceFixtures.data("versions/v3.json"))
        let retried = try await world.runOnce("retried")
        #expect(Self.lines(retried, containing: Self.imported).count == 1, "the next start tries again")
        #expect(world.markerExists && world.stateExists)
    }

    @Test func whenBothExistTheStateFileWinsAndTheLegacyFileIsNamed() async throws {
        let world = try World()
        let legacy = try WorkspaceFixtures.data("versions/v1.json")
        try world.writeLegacy(legacy)
        let state = try WorkspaceFixtures.data("versions/v4.json")
        try world.harness.writeState(state)
        let output = try await world.runOnce("both")
        let warning = Self.lines(output, containing: "both \(world.harness.statePath) and the legacy state file")
        #expect(warning.count == 1 && warning.first?.contains(world.legacyPath) == true, "\(output)")
        #expect(try world.harness.stateBytes() == state)
        #expect(try world.legacyBytes() == legacy)
        #expect(!world.markerExists)
    }

    @Test func killedBeforeTheMarkerTheNextStartWritesItAndImportsNothing() async throws {
        let world = try World()
        let legacy = try WorkspaceFixtures.data("versions/v1.json")
        try world.writeLegacy(legacy)
        _ = try await world.runOnce("first")
        // As if killed after the state file was durable and before the marker: the intent is still there.
        let markerBytes = try Data(contentsOf: URL(fileURLWithPath: world.markerPath))
        try FileManager.default.moveItem(atPath: world.markerPath, toPath: world.markerPath + ".pending")
        let stateBytes = try world.harness.stateBytes()
        let output = try await world.runOnce("second")
        #expect(Self.lines(output, containing: Self.imported).isEmpty, "\(output)")
        #expect(Self.lines(output, containing: "but not its marker").count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: world.markerPath)) == markerBytes)
        #expect(!FileManager.default.fileExists(atPath: world.markerPath + ".pending"))
        #expect(try world.harness.stateBytes() == stateBytes)
    }

    @Test func anEmptyLegacyStatePathTurnsTheImportOff() async throws {
        let world = try World()
        try world.writeLegacy(try WorkspaceFixtures.data("versions/v1.json"))
        try world.harness.writeConfig(#"{"legacyStatePath": ""}"#)
        let output = try await world.runOnce("off")
        #expect(Self.lines(output, containing: Self.imported).isEmpty, "\(output)")
        #expect(!world.markerExists && !world.stateExists)
    }

    @Test func stageLegacyCopiesForTheStateDirectoryOwnerOnlyWhenAnImportIsDue() async throws {
        let world = try World()
        let legacy = try WorkspaceFixtures.data("versions/v2.json")
        try world.writeLegacy(legacy)
        chmod(world.legacyPath, 0o600)
        let staged = world.harness.stateDirectory + "/.legacy-import.json"
        if getuid() == 0 { chown(world.harness.stateDirectory, 65534, 65534) }
        let stage = try await world.harness.runTool([
            "stage-legacy", "--config", world.harness.configPath, "--state-directory", world.harness.stateDirectory,
        ])
        #expect(stage.status == 0 && stage.output.contains("staged \(world.legacyPath)"), "\(stage.output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: staged)) == legacy)
        var info = stat()
        #expect(stat(staged, &info) == 0 && info.st_mode & 0o777 == 0o600)
        if getuid() == 0 { #expect(info.st_uid == 65534 && info.st_gid == 65534, "owned by the service's user") }
        if getuid() == 0 { chown(world.harness.stateDirectory, 0, 0) }

        _ = try await world.runOnce("import")
        #expect(!FileManager.default.fileExists(atPath: staged), "the daemon removes the copy once imported")
        #expect(world.markerExists)
        let marker = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: world.markerPath)))
        #expect((marker as? [String: Any])?["source"] as? String == world.legacyPath)

        let again = try await world.harness.runTool([
            "stage-legacy", "--config", world.harness.configPath, "--state-directory", world.harness.stateDirectory,
        ])
        #expect(again.status == 0 && again.output.contains("no legacy import due"), "\(again.output)")
        #expect(!FileManager.default.fileExists(atPath: staged))
    }
}
