import Foundation
import TestSupport
import Testing

@Suite("workspaced offline tools")
struct OfflineToolTests {
    @Test func checkReportsLoadableCorruptAndNewerFilesWithTheirExitCodes() async throws {
        let harness = try TestDaemon()
        try harness.writeState(try WorkspaceFixtures.data("versions/v1.json"))
        let loadable = try await harness.runTool(["check", "--state", harness.statePath])
        #expect(loadable.status == 0)
        #expect(loadable.output.contains("stored version: 1"))
        #expect(loadable.output.contains("target version: 4"))
        #expect(loadable.output.contains("steps that would run: 1→2, 2→3, 3→4"))
        #expect(loadable.output.contains("owner.pronouns"))
        try harness.writeState(Data("{broken".utf8))
        #expect(try await harness.runTool(["check", "--state", harness.statePath]).status == 65)
        try harness.writeState(try WorkspaceFixtures.data("edge/newer-incompatible.json"))
        let newer = try await harness.runTool(["check", "--state", harness.statePath])
        #expect(newer.status == 75)
        #expect(try harness.stateBytes() == (try WorkspaceFixtures.data("edge/newer-incompatible.json")))
    }

    @Test func checkListsWhatASalvageWouldDropAndWritesNothing() async throws {
        let harness = try TestDaemon()
        let original = try WorkspaceFixtures.data("salvage/v2-pane-viewmode-string.json")
        try harness.writeState(original)
        let text = try await harness.runTool(["check", "--state", harness.statePath])
        #expect(text.status == 65)
        #expect(text.output.contains("problem: the file does not load as it is: wrong type at projects[0].panes[0]"))
        #expect(text.output.contains("1 record(s) dropped, 1 field(s) coerced, 0 field(s) defaulted"))
        #expect(text.output.contains("would drop: projects[0].panes[1] (id 22222222-2222-4222-8222-222222222222)"))
        #expect(text.output.contains(#"would coerce: projects[0].panes[0].viewMode from "2" to 2"#))
        let json = try await harness.runTool(["check", "--state", harness.statePath, "--json"])
        #expect(json.status == 65)
        let report = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect(report?["verdict"] as? String == "salvageable")
        let salvage = report?["salvage"] as? [String: Any]
        let dropped = (salvage?["droppedRecords"] as? [[String: Any]])?.compactMap { $0["path"] as? String }
        #expect(dropped == ["projects[0].panes[1]"])
        #expect(try harness.stateBytes() == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: harness.stateDirectory) == ["workspace.json"])

        try harness.writeState(try WorkspaceFixtures.data("versions/v4.json"))
        let clean = try await harness.runTool(["check", "--state", harness.statePath, "--json"])
        #expect(clean.status == 0)
        #expect(clean.output.contains(#""verdict" : "loadable""#))
        try harness.writeState(Data(#"{"version": 1.5}"#.utf8))
        let corrupt = try await harness.runTool(["check", "--state", harness.statePath, "--json"])
        #expect(corrupt.status == 65)
        #expect(corrupt.output.contains(#""verdict" : "corrupt""#))
        #expect(corrupt.output.contains("which is not a whole number"))
    }

    @Test func migrateDryRunWritesNothingAndMigrateKeepsTheBackup() async throws {
        let harness = try TestDaemon()
        let original = try WorkspaceFixtures.data("versions/v2.json")
        try harness.writeState(original)
        let dry = try await harness.runTool(["migrate", "--state", harness.statePath, "--dry-run"])
        #expect(dry.status == 0)
        #expect(dry.output.contains(#""version" : 4"#))
        #expect(try harness.stateBytes() == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: harness.stateDirectory) == ["workspace.json"])
        let real = try await harness.runTool(["migrate", "--state", harness.statePath])
        #expect(real.status == 0)
        #expect(String(decoding: try harness.stateBytes(), as: UTF8.self).contains(#""version":4"#))
        #expect(try Data(contentsOf: URL(fileURLWithPath: harness.statePath + ".v2.bak")) == original)
        let listed = try await harness.runTool(["backups", "--state-dir", harness.stateDirectory])
        #expect(listed.status == 0)
        #expect(listed.output.contains("workspace.json.v2.bak\tpre-migration\tv2"))
        let restored = try await harness.runTool([
            "backups", "--state-dir", harness.stateDirectory, "--restore", "workspace.json.v2.bak",
        ])
        #expect(restored.status == 0, "\(restored.output)")
        #expect(try harness.stateBytes() == original)
    }

    @Test func migrateIsRefusedWhileTheDaemonHoldsTheLock() async throws {
        let harness = try TestDaemon()
        try harness.writeState(try WorkspaceFixtures.data("versions/v3.json"))
        let daemon = try harness.start()
        #expect(await harness.becomesReady())
        let refused = try await harness.runTool(["migrate", "--state", harness.statePath])
        #expect(refused.status == 73)
        #expect(refused.output.contains("in use by another process"))
        #expect(
            try await harness.runTool(["check", "--state", harness.statePath]).status == 0,
            "check never needs the lock")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit() == 0)
    }

    @Test func checkConfigValidatesWithoutStarting() async throws {
        let harness = try TestDaemon()
        let good = try await harness.runTool(["check-config", "--config", harness.configPath])
        #expect(good.status == 0)
        #expect(good.output.contains("save debounce:      60.0 seconds") || good.output.contains("save debounce"))
        try harness.writeConfig(#"{"corruptFilePolicy": "shrug"}"#)
        let bad = try await harness.runTool(["check-config", "--config", harness.configPath])
        #expect(bad.status == 78)
        #expect(bad.output.contains("corruptFilePolicy"))
    }
}
