import Foundation
import TestSupport
import Testing
import WorkspaceDaemon

/// `workspaced migrate --to N` and the lowest version in `workspaced check`: the binary on real files, and the
/// tool in process on every fixture of every version.
@Suite("workspaced migrate --to")
struct MigrateDownToolTests {
    @Test func writesTheStateDownWithABackupNamingWhatMoved() async throws {
        let harness = try TestDaemon()
        let original = try WorkspaceFixtures.data("down/v4.json")
        try harness.writeState(original)
        let check = try await harness.runTool(["check", "--state", harness.statePath])
        #expect(check.output.contains("lowest version: 1 (workspaced migrate --to 1 writes it for an older release)"))
        let dry = try await harness.runTool(["migrate", "--state", harness.statePath, "--to", "1", "--dry-run"])
        #expect(dry.status == 0)
        #expect(dry.output.contains(#""version" : 1"#))
        #expect(dry.output.contains("would be written as version 1 (4→3, 3→2, 2→1)"))
        #expect(dry.output.contains("set aside in unknown fields: owner.email for 1 record(s)"))
        #expect(try harness.stateBytes() == original, "a dry run writes nothing")
        #expect(try FileManager.default.contentsOfDirectory(atPath: harness.stateDirectory) == ["workspace.json"])

        let real = try await harness.runTool(["migrate", "--state", harness.statePath, "--to", "2"])
        #expect(real.status == 0, "\(real.output)")
        #expect(real.output.contains("written as version 2 (4→3, 3→2)"))
        #expect(real.output.contains("set aside in unknown fields: favorites[].createdAt for 1 record(s)"))
        #expect(real.output.contains("set aside in unknown fields: projects[].panes[].viewModeName for 1 record(s)"))
        #expect(real.output.contains("default: owner.age for 1 record(s)"))
        #expect(real.output.contains("backup: workspace.json.v4.bak"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: harness.statePath + ".v4.bak")) == original)
        let written = try JSONSerialization.jsonObject(with: try harness.stateBytes()) as? [String: Any]
        #expect(written?["version"] as? Int == 2 && written?["minReaderVersion"] as? Int == 2)

        // Again at version 2: nothing to do; up again: the daemon's migrate takes everything back.
        let again = try await harness.runTool(["migrate", "--state", harness.statePath, "--to", "2"])
        #expect(again.status == 0 && again.output.contains("already at version 2; nothing to do"))
        let taken = try await harness.runTool(["check", "--state", harness.statePath])
        #expect(
            taken.output.contains("taken back from a rollback: favorites[].createdAt for 1 record(s)"),
            "\(taken.output)")
        let up = try await harness.runTool(["migrate", "--state", harness.statePath])
        #expect(up.status == 0, "\(up.output)")
        #expect(try Self.load(try harness.stateBytes()) == (try Self.load(original)), "down then up changed the state")
    }

    @Test func aVersionOutOfRangeIsAUsageErrorAndChangesNothing() async throws {
        let harness = try TestDaemon()
        let original = try WorkspaceFixtures.data("versions/v4.json")
        try harness.writeState(original)
        for bad in ["0", "5", "two"] {
            let refused = try await harness.runTool(["migrate", "--state", harness.statePath, "--to", bad])
            #expect(refused.status == 64, "--to \(bad): \(refused.output)")
            #expect(refused.output.contains("Usage: workspaced migrate "), "--to \(bad): \(refused.output)")
        }
        #expect(try harness.stateBytes() == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: harness.stateDirectory) == ["workspace.json"])
    }

    /// Every fixture of every version, written down to every lower version: the file is then at that version,
    /// and loads as the same workspace as the fixture did. A fixture already at or below the version is left
    /// byte for byte.
    @Test(arguments: [1, 2, 3, 4])
    func everyFixtureGoesDownToEveryVersion(fixture: Int) throws {
        let original = try WorkspaceFixtures.data("versions/v\(fixture).json")
        let expected = try Self.load(original)
        for target in 1...3 {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-to-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("workspace.json").path
            try original.write(to: URL(fileURLWithPath: path))
            let outcome = OfflineTools.migrate(statePath: path, dryRun: false, to: target)
            #expect(outcome.status == 0, "v\(fixture) --to \(target): \(outcome.text)")
            let now = try Data(contentsOf: URL(fileURLWithPath: path))
            if fixture <= target {
                #expect(now == original, "v\(fixture) --to \(target) changed a file it had nothing to do for")
                continue
            }
            let stored = try JSONSerialization.jsonObject(with: now) as? [String: Any]
            #expect(stored?["version"] as? Int == target, "v\(fixture) --to \(target)")
            #expect(try Self.load(now) == expected, "v\(fixture) --to \(target) and back differs")
        }
    }

    /// The workspace a file loads as, in `check --json` terms that do not depend on the path: migrated to the
    /// current version and saved (`migrate --dry-run` prints it).
    static func load(_ bytes: Data) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-load-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("workspace.json").path
        try bytes.write(to: URL(fileURLWithPath: path))
        let outcome = OfflineTools.migrate(statePath: path, dryRun: true)
        #expect(outcome.status == 0, "\(outcome.text)")
        // Each load starts a lineage of its own (the file stores none): compare the state, not the stamp (nor the
        // checksum of the stamped bytes).
        var object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.text.utf8)) as? [String: Any])
        object["lineage"] = nil
        object["revision"] = nil
        object["contentChecksum"] = nil
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
    }
}
