import Foundation
import TestSupport
import Testing

/// `workspaced backup` and `workspaced backups [--restore]` on the binary: a backup on demand beside the running
/// daemon, a restore of any file kept, refused when it does not load, and a start after it that reports no
/// unclean stop.
@Suite("workspaced backup and backups --restore")
struct BackupToolTests {
    /// The names in the state directory that start with `prefix`.
    static func names(_ harness: TestDaemon, _ prefix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: harness.stateDirectory).filter { $0.hasPrefix(prefix) }
    }

    @Test func aManualBackupBesideTheDaemonIsRestoredAndTheNextStartIsClean() async throws {
        let harness = try TestDaemon()
        try harness.writeState(try WorkspaceFixtures.data("versions/v4.json"))
        let daemon = try harness.start()
        #expect(await harness.becomesReady(), "\(daemon.output)")
        let made = try await harness.runTool(["backup", "--state-directory", harness.stateDirectory])
        #expect(made.status == 0, "\(made.output)")
        let name = try #require(try Self.names(harness, "workspace.json.manual-").first)
        #expect(made.output.contains("as \(name)"))
        let again = try await harness.runTool(["backup", "--state-directory", harness.stateDirectory])
        #expect(again.status == 0 && again.output.contains("is kept already: \(name) (manual)"), "\(again.output)")
        #expect(try Self.names(harness, "workspace.json.manual-") == [name], "the same bytes are kept once")
        let locked = try await harness.runTool([
            "backups", "--state-directory", harness.stateDirectory, "--restore", name,
        ])
        #expect(locked.status == 73, "\(locked.output)")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit() == 0)

        let listed = try await harness.runTool(["backups", "--json", "--state-directory", harness.stateDirectory])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: Any])
        let backups = try #require(report["backups"] as? [[String: Any]])
        #expect(backups.map { $0["kind"] as? String } == ["manual"])
        #expect(backups.first?["name"] as? String == name && backups.first?["version"] == nil)

        let restored = try await harness.runTool([
            "backups", "--state-directory", harness.stateDirectory, "--restore", name,
        ])
        #expect(restored.status == 0, "\(restored.output)")
        #expect(restored.output.contains("restored \(name) (manual, version 4, revision "), "\(restored.output)")
        #expect(restored.output.contains("projects (") && restored.output.contains("favorites, owner "))
        #expect(restored.output.contains("the next start continues it as lineage"))
        // Only a READY=1 sent after the restart began means the new process is ready.
        let (restarted, ready, _) = try await harness.startUntilReadyOrExit(output: "restarted.log")
        #expect(ready, "\(restarted.output)")
        #expect(restarted.output.contains("a backup was restored over the file"), "\(restarted.output)")
        #expect(!restarted.output.contains("did not stop cleanly"), "\(restarted.output)")
        restarted.send(SIGTERM)
        #expect(await restarted.waitForExit() == 0)
    }

    @Test func aSalvagedOriginalIsListedAndRefusedUnlessItsSalvageIsAskedFor() async throws {
        let harness = try TestDaemon()
        try harness.writeState(try WorkspaceFixtures.data("salvage/v2-pane-viewmode-string.json"))
        let daemon = try harness.start()
        #expect(await harness.becomesReady(), "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit() == 0)
        let name = try #require(try Self.names(harness, "workspace.json.corrupt-").first)
        let listed = try await harness.runTool(["backups", "--state-directory", harness.stateDirectory])
        #expect(listed.output.contains("\(name)\tcorrupt\t-\t"), "\(listed.output)")

        let before = try harness.stateBytes()
        let refused = try await harness.runTool([
            "backups", "--state-directory", harness.stateDirectory, "--restore", name,
        ])
        #expect(refused.status == 65, "\(refused.output)")
        #expect(refused.output.contains("nothing was changed"))
        #expect(refused.output.contains("workspaced check --state \(harness.stateDirectory)/\(name)"))
        #expect(try harness.stateBytes() == before)
        #expect(try Self.names(harness, "workspace.json.before-restore").isEmpty)

        let salvaged = try await harness.runTool([
            "backups", "--state-directory", harness.stateDirectory, "--restore", name, "--salvage",
        ])
        #expect(salvaged.status == 0, "\(salvaged.output)")
        #expect(salvaged.output.contains("restored \(name) (corrupt, version 2"), "\(salvaged.output)")
        #expect(salvaged.output.contains("salvaged: "))
        let usage = try await harness.runTool([
            "backups", "--state-directory", harness.stateDirectory, "--salvage",
        ])
        #expect(usage.status == 64)
    }
}
