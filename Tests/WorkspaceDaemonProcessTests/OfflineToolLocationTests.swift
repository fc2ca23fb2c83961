import Foundation
import TestSupport
import Testing

/// `workspaced check | migrate | backups` find the state directory as the daemon does when no path is given, take
/// the daemon's flag names, and `backups --json` prints a ``BackupsReport``.
@Suite("workspaced offline tools: the configured state directory, flag names, backups --json")
struct OfflineToolLocationTests {
    /// No config file at the default place: `$CONFIGURATION_DIRECTORY` points at an empty directory, so a
    /// `/etc/workspaced/config.json` on the machine is never read.
    static func environment(_ harness: TestDaemon, _ extra: [String: String] = [:]) -> [String: String] {
        ["CONFIGURATION_DIRECTORY": harness.root + "/no-config"].merging(extra) { $1 }
    }

    @Test("with no path, check reads workspace.json in the configured directory: variable, config file, systemd's")
    func configuredDirectory() async throws {
        let harness = try TestDaemon()
        try harness.writeState(try WorkspaceFixtures.data("versions/v4.json"))
        let other = harness.root + "/elsewhere"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)

        let byVariable = try await harness.runTool(
            ["check"], environment: Self.environment(harness, ["WORKSPACED_STATE_DIRECTORY": harness.stateDirectory]))
        #expect(byVariable.status == 0, "\(byVariable.output)")
        #expect(byVariable.output.contains("file: \(harness.statePath)"))

        let bySystemd = try await harness.runTool(
            ["check"], environment: Self.environment(harness, ["STATE_DIRECTORY": harness.stateDirectory]))
        #expect(bySystemd.status == 0, "\(bySystemd.output)")
        #expect(bySystemd.output.contains("file: \(harness.statePath)"))

        try harness.writeConfig(#"{"stateDirectory": "\#(other)"}"#)
        let byFile = try await harness.runTool(
            ["check", "--config", harness.configPath],
            environment: Self.environment(harness, ["STATE_DIRECTORY": harness.stateDirectory]))
        #expect(byFile.status == 66, "the config file's directory wins over $STATE_DIRECTORY: \(byFile.output)")
        #expect(byFile.output.contains("\(other)/workspace.json: no such file"))

        let byVariableOverFile = try await harness.runTool(
            ["check", "--config", harness.configPath, "--json"],
            environment: Self.environment(harness, ["WORKSPACED_STATE_DIRECTORY": harness.stateDirectory]))
        #expect(byVariableOverFile.status == 0, "\(byVariableOverFile.output)")
        #expect(byVariableOverFile.output.contains(#""file" : "\#(harness.statePath)""#))
    }

    @Test("--state-directory names the directory; --state FILE still names any file; both is a usage error")
    func explicitPaths() async throws {
        let harness = try TestDaemon()
        try harness.writeState(try WorkspaceFixtures.data("versions/v2.json"))
        let environment = Self.environment(harness)

        let check = try await harness.runTool(
            ["check", "--state-directory", harness.stateDirectory], environment: environment)
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("steps that would run: 2→3, 3→4"))
        let byFile = try await harness.runTool(["check", "--state", harness.statePath], environment: environment)
        #expect(byFile.status == 0)
        #expect(byFile.output.contains("file: \(harness.statePath)"))
        let dry = try await harness.runTool(
            ["migrate", "--dry-run", "--state-directory", harness.stateDirectory], environment: environment)
        #expect(dry.status == 0)
        #expect(dry.output.contains(#""version" : 4"#))

        for arguments in [
            ["check", "--state", harness.statePath, "--state-directory", harness.stateDirectory],
            ["migrate", "--state", harness.statePath, "--config", harness.configPath],
            ["backups", "--state-directory", harness.stateDirectory, "--state-dir", harness.stateDirectory],
            ["backups", "--state-directory", harness.stateDirectory, "--json", "--restore", "x.bak"],
        ] {
            let refused = try await harness.runTool(arguments, environment: environment)
            #expect(refused.status == 64, "\(arguments): \(refused.output)")
        }
        #expect(try harness.stateBytes() == (try WorkspaceFixtures.data("versions/v2.json")))
    }

    @Test("an invalid configuration exits 78 naming the key, unless --state-directory makes it unneeded")
    func invalidConfiguration() async throws {
        let harness = try TestDaemon()
        try harness.writeState(try WorkspaceFixtures.data("versions/v4.json"))
        try harness.writeConfig(#"{"stateDirectory": "relative/path"}"#)
        let environment = Self.environment(harness)
        for tool in [["check"], ["migrate", "--dry-run"], ["backups"]] {
            let refused = try await harness.runTool(
                tool + ["--config", harness.configPath], environment: environment)
            #expect(refused.status == 78, "\(tool): \(refused.output)")
            #expect(refused.output.contains("workspaced \(tool[0]): configuration key stateDirectory"))
        }
        let bad = try await harness.runTool(
            ["backups"], environment: Self.environment(harness, ["WORKSPACED_LOG_LEVEL": "loud"]))
        #expect(bad.status == 78)
        #expect(bad.output.contains("logLevel"))
        let explicit = try await harness.runTool(
            ["backups", "--state-directory", harness.stateDirectory],
            environment: Self.environment(harness, ["WORKSPACED_LOG_LEVEL": "loud"]))
        #expect(explicit.status == 0, "\(explicit.output)")
    }

    @Test("backups --json prints the documented shape, an empty list when there are none")
    func backupsJSON() async throws {
        let harness = try TestDaemon()
        let original = try WorkspaceFixtures.data("versions/v2.json")
        try harness.writeState(original)
        let environment = Self.environment(harness, ["WORKSPACED_STATE_DIRECTORY": harness.stateDirectory])

        let none = try await harness.runTool(["backups", "--json"], environment: environment)
        #expect(none.status == 0, "\(none.output)")
        let empty = try #require(try JSONSerialization.jsonObject(with: Data(none.output.utf8)) as? [String: Any])
        #expect(empty["stateDirectory"] as? String == harness.stateDirectory)
        #expect(empty["stateFile"] as? String == harness.statePath)
        #expect((empty["backups"] as? [Any])?.isEmpty == true)
        #expect(Set(empty.keys) == ["stateDirectory", "stateFile", "backups"])

        #expect(try await harness.runTool(["migrate"], environment: environment).status == 0)
        let listed = try await harness.runTool(["backups", "--json"], environment: environment)
        #expect(listed.status == 0, "\(listed.output)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: Any])
        let backups = try #require(report["backups"] as? [[String: Any]])
        #expect(backups.count == 1)
        let backup = try #require(backups.first)
        #expect(backup["name"] as? String == "workspace.json.v2.bak")
        #expect(backup["path"] as? String == harness.statePath + ".v2.bak")
        #expect(backup["kind"] as? String == "pre-migration")
        #expect(backup["version"] as? Int == 2)
        #expect(backup["size"] as? Int == original.count)
        let modified = try #require(backup["modifiedAt"] as? String)
        let date = try #require(ISO8601DateFormatter().date(from: modified), "\(modified) is not ISO-8601")
        #expect(abs(date.timeIntervalSinceNow) < 600)
        #expect(Set(backup.keys) == ["name", "path", "kind", "version", "size", "modifiedAt"])

        let text = try await harness.runTool(
            ["backups", "--state-dir", harness.stateDirectory], environment: Self.environment(harness))
        #expect(text.status == 0, "the earlier flag name still works: \(text.output)")
        #expect(text.output.contains("workspace.json.v2.bak\tpre-migration\tv2"))

        let missing = try await harness.runTool(
            ["backups", "--json", "--state-directory", harness.root + "/none"], environment: environment)
        #expect(missing.status == 74)
        #expect(!missing.output.hasPrefix("{"))
    }
}
