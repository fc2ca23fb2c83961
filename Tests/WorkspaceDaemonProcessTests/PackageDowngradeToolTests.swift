import Foundation
import StateStore
import TestSupport
import Testing
import WorkspaceDaemon
import WorkspaceModel
import WorkspaceStorage

/// What the Debian prerm asks before a downgrade (`migrate --for-release R --needed`) and what it then runs
/// (`migrate --for-release R`): in process on a schema with a version 5 the test adds, and on `workspaced-testing`
/// with its version 5 (the one the package-downgrade system scenario installs).
@Suite("workspaced migrate --for-release for a package downgrade")
struct PackageDowngradeToolTests {
    /// A version 5 on top of the shipped chain: version 4 plus a root `note`, set aside by the reverse step.
    static func schemaFive(reversible: Bool) throws -> StateSchema<Workspace> {
        let up: @Sendable (Workspace, inout MigrationContext) -> Workspace = { old, context in
            var workspace = old
            let note = context.takeBack(String.self, "note", from: &workspace.unknownFields, at: "") ?? "new"
            workspace.unknownFields.values["note"] = .string(note)
            return workspace
        }
        let down: @Sendable (Workspace, inout MigrationContext) throws -> Workspace = { new, context in
            var workspace = new
            guard case .string(let note)? = workspace.unknownFields.values.removeValue(forKey: "note") else {
                return workspace
            }
            workspace.unknownFields = try context.setAside(note, as: "note", in: workspace.unknownFields, at: "")
            return workspace
        }
        let step =
            reversible
            ? MigrationStep(from: 4, Workspace.self, to: Workspace.self, convert: up, revert: down)
            : MigrationStep(from: 4, Workspace.self, to: Workspace.self, convert: up)
        return try WorkspaceSchema.make(currentVersion: 5, adding: [step])
    }

    static func directory() throws -> String {
        let path = NSTemporaryDirectory() + "downgrade-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aReleaseOfTheSameSchemaNeedsNothingAndAnUnknownOneIsRefused() throws {
        let path = try Self.directory() + "/workspace.json"
        try WorkspaceFixtures.data("versions/v4.json").write(to: URL(fileURLWithPath: path))
        let same = OfflineTools.writeDownNeeded(statePath: path, forRelease: "0.1.0")
        #expect(same.status == OfflineTools.notNeeded, "\(same.text)")
        #expect(same.text == "release 0.1.0 reads schema version 4, as this one does; nothing to do")
        let unknown = OfflineTools.writeDownNeeded(statePath: path, forRelease: "0.0.3")
        #expect(unknown.status == OfflineTools.usage && unknown.text.contains("not in this release's table"))
    }

    @Test func aReleaseOfAnOlderSchemaNeedsTheStopAndTheWriteDownWhichThenRestoresEverything() throws {
        let schema = try Self.schemaFive(reversible: true)
        let directory = try Self.directory()
        let path = directory + "/workspace.json"
        let original = try WorkspaceFixtures.data("versions/v4.json")
        try original.write(to: URL(fileURLWithPath: path))

        // At version 4 on disk: the stop is needed (a running version 5 could migrate it), no write.
        let before = OfflineTools.writeDownNeeded(statePath: path, forRelease: "0.2.0", schema: schema)
        #expect(before.status == 0, "\(before.text)")
        #expect(before.text.hasSuffix("is at version 4: nothing to write"), "\(before.text)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)

        #expect(OfflineTools.migrate(statePath: path, dryRun: false, schema: schema).status == 0)
        let up = try String(contentsOfFile: path, encoding: .utf8)
        #expect(up.contains(#""version":5"#) && up.contains(#""note":"new""#), "\(up)")

        let needed = OfflineTools.writeDownNeeded(statePath: path, forRelease: "0.2.0", schema: schema)
        #expect(needed.status == 0, "\(needed.text)")
        #expect(needed.text.contains("at version 5, is written down to 4 (1 field(s) set aside"), "\(needed.text)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == up, "the question writes nothing")

        let written = OfflineTools.migrate(statePath: path, forRelease: "0.2.0", dryRun: false, schema: schema)
        #expect(written.status == 0, "\(written.text)")
        #expect(written.text.contains("set aside in unknown fields: note for 1 record(s)"), "\(written.text)")
        let down = try String(contentsOfFile: path, encoding: .utf8)
        #expect(down.contains(#""version":4"#) && down.contains(#""note":"new""#), "\(down)")
        // The shipped schema (the older release) reads it, and this one takes the note back.
        #expect(OfflineTools.check(statePath: path).status == OfflineTools.loadable)
        #expect(OfflineTools.migrate(statePath: path, dryRun: false, schema: schema).status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains(#""note":"new""#))
    }

    @Test func aVersionWithNoWayDownIsRefusedBeforeAnythingChanges() throws {
        let oneWay = try Self.schemaFive(reversible: false)
        let path = try Self.directory() + "/workspace.json"
        try WorkspaceFixtures.data("versions/v4.json").write(to: URL(fileURLWithPath: path))
        #expect(OfflineTools.migrate(statePath: path, dryRun: false, schema: oneWay).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let needed = OfflineTools.writeDownNeeded(statePath: path, forRelease: "0.2.0", schema: oneWay)
        #expect(needed.status == OfflineTools.usage, "\(needed.text)")
        #expect(needed.text.contains("the step from version 4 to 5 has no way back"), "\(needed.text)")
        let refused = OfflineTools.migrate(statePath: path, forRelease: "0.2.0", dryRun: false, schema: oneWay)
        #expect(refused.status == OfflineTools.usage)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    /// `workspaced-testing` with `WSD_TEST_SCHEMA_FIVE` (what the system scenario's newer package runs): version 5
    /// after a migrate, written down for 0.2.0 with its note kept, the note back after the next migrate; with
    /// `one-way`, `--needed` says 64 and nothing changes.
    @Test func theTestHooksVersionFiveGoesDownAndComesBackWithItsNote() async throws {
        let harness = try TestDaemon()
        try harness.writeState(try WorkspaceFixtures.data("versions/v4.json"))
        let five = ["WSD_TEST_HOOKS": "1", "WSD_TEST_SCHEMA_FIVE": "1"]
        let state = ["--state", harness.statePath]
        #expect(try await harness.runTool(["migrate"] + state, environment: five).status == 0)
        let note = try Self.note(harness)
        #expect(note?.hasPrefix("first written by version 5 at ") == true, "\(String(describing: note))")

        let asked = try await harness.runTool(
            ["migrate", "--for-release", "0.2.0", "--needed"] + state, environment: five)
        #expect(asked.status == 0, "\(asked.output)")
        let oneWay = try await harness.runTool(
            ["migrate", "--for-release", "0.2.0", "--needed"] + state,
            environment: five.merging(["WSD_TEST_SCHEMA_FIVE": "one-way"]) { $1 })
        #expect(oneWay.status == 64 && oneWay.output.contains("no way back"), "\(oneWay.output)")
        let shipped = try await harness.runTool(["migrate", "--for-release", "0.2.0", "--needed"] + state)
        #expect(
            shipped.status == OfflineTools.notNeeded, "the shipped binary writes what 0.2.0 reads: \(shipped.output)")

        let down = try await harness.runTool(["migrate", "--for-release", "0.2.0"] + state, environment: five)
        #expect(down.status == 0 && down.output.contains("backup: workspace.json.v5.bak"), "\(down.output)")
        #expect(try await harness.runTool(["check"] + state).status == 0, "the shipped binary reads it")
        #expect(try await harness.runTool(["migrate"] + state, environment: five).status == 0)
        #expect(try Self.note(harness) == note, "the note came back, not a new default")
    }

    static func note(_ harness: TestDaemon) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: try harness.stateBytes()) as? [String: Any]
        return object?["schemaFiveNote"] as? String
    }
}
