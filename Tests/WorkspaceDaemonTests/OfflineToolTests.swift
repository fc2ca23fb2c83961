import Foundation
import TestSupport
import Testing

@Suite("workspaced offline tools")
struct OfflineToolTests {
    @Test func checkReportsLoadableCorruptAndNewerFilesWithTheirExitCodes() async throws {
        let harness = try DaemonHarness()
        try harness.writeState(try WorkspaceFixtures.data("versions/v1.json"))
        let loadable = try await harness.runToolAsync(["check", "--state", harness.statePath])
        #expect(loadable.status == 0)
        #expect(loadable.output.contains("stored version: 1"))
        #expect(loadable.output.contains("target version: 4"))
        #expect(loadable.output.contains("steps that would run: 1→2, 2→3, 3→4"))
        #expect(loadable.output.contains("owner.pronouns"))
        try harness.writeState(Data("{broken".utf8))
        #expect(try await harness.runToolAsync(["check", "--state", harness.statePath]).status == 65)
        try harness.writeState(try WorkspaceFixtures.data("edge/newer-incompatible.json"))
        let newer = try await harness.runToolAsync(["check", "--state", harness.statePath])
        #expect(newer.status == 75)
        #expect(try harness.stateBytes() == (try WorkspaceFixtures.data("edge/newer-incompatible.json")))
    }

    @Test func migrateDryRunWritesNothingAndMigrateKeepsTheBackup() async throws {
        let harness = try DaemonHarness()
        let original = try WorkspaceFixtures.data("versions/v2.json")
        try harness.writeState(original)
        let dry = try await harness.runToolAsync(["migrate", "--state", harness.statePath, "--dry-run"])
        #expect(dry.status == 0)
        #expect(dry.output.contains(#""version" : 4"#))
        #expect(try harness.stateBytes() == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: harness.stateDirectory) == ["workspace.json"])
        let real = try await harness.runToolAsync(["migrate", "--state", harness.statePath])
        #expect(real.status == 0)
        #expect(String(decoding: try harness.stateBytes(), as: UTF8.self).contains(#""version":4"#))
        #expect(try Data(contentsOf: URL(fileURLWithPath: harness.statePath + ".v2.bak")) == original)
        let listed = try await harness.runToolAsync(["backups", "--state-dir", harness.stateDirectory])
        #expect(listed.status == 0)
        #expect(listed.output.contains("workspace.json.v2.bak\tpre-migration\tv2"))
        let restored = try await harness.runToolAsync([
            "backups", "--state-dir", harness.stateDirectory, "--restore", "workspace.json.v2.bak",
        ])
        #expect(restored.status == 0, "\(restored.output)")
        #expect(try harness.stateBytes() == original)
    }

    @Test func migrateIsRefusedWhileTheDaemonHoldsTheLock() async throws {
        let harness = try DaemonHarness()
        try harness.writeState(try WorkspaceFixtures.data("versions/v3.json"))
        let daemon = try harness.start()
        #expect(await harness.becomesReady())
        let refused = try await harness.runToolAsync(["migrate", "--state", harness.statePath])
        #expect(refused.status == 73)
        #expect(refused.output.contains("in use by another process"))
        #expect(
            try await harness.runToolAsync(["check", "--state", harness.statePath]).status == 0,
            "check never needs the lock")
        daemon.send(SIGTERM)
        #expect(await exitStatus(of: daemon, timeout: .seconds(10)) == 0)
    }

    @Test func checkConfigValidatesWithoutStarting() async throws {
        let harness = try DaemonHarness()
        let good = try await harness.runToolAsync(["check-config", "--config", harness.configPath])
        #expect(good.status == 0)
        #expect(good.output.contains("save debounce:      60.0 seconds") || good.output.contains("save debounce"))
        try harness.writeConfig(#"{"corruptFilePolicy": "shrug"}"#)
        let bad = try await harness.runToolAsync(["check-config", "--config", harness.configPath])
        #expect(bad.status == 78)
        #expect(bad.output.contains("corruptFilePolicy"))
    }
}
