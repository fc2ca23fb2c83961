import Foundation
import TestSupport
import Testing
import WorkspaceModel

#if canImport(Glibc)
import Glibc
#endif

/// `workspaced verify` on the binary (issue 44's offline scrub): a clean state directory passes file by file; a
/// flipped byte in a pre-migration backup and in a history segment are each named, and nothing is changed.
@Suite("workspaced verify")
struct VerifyToolTests {
    @Test func everyFileIsReadAndEachDamagedOneIsNamed() async throws {
        let harness = try TestDaemon()
        // A version-1 file: the start migrates it and keeps its original bytes as workspace.json.v1.bak.
        try harness.writeState(try WorkspaceFixtures.data("versions/v1.json"))
        let history = HistoryProcessTests()
        _ = try await history.run(harness, ["one", "two"], output: "first.log")
        _ = try await history.run(harness, ["three"], output: "second.log")
        let backup = harness.stateDirectory + "/workspace.json.v1.bak"
        #expect(FileManager.default.fileExists(atPath: backup))

        let clean = try await harness.runTool(["verify", "--state-directory", harness.stateDirectory])
        #expect(clean.status == 0, "\(clean.output)")
        #expect(clean.output.contains("ok \(harness.statePath): version 4"), "\(clean.output)")
        #expect(clean.output.contains("ok \(backup): pre-migration backup, version 1"), "\(clean.output)")
        #expect(clean.output.contains("every SHA-256 and change checked"), "\(clean.output)")
        #expect(clean.output.contains("every file is whole (7 checked)"), "\(clean.output)")

        // A changed byte in the backup's JSON (it no longer loads) and one in a history segment.
        let (segmentPath, segmentBytes) = try damageBackupAndSegment(
            backup: backup, stateDirectory: harness.stateDirectory)
        let backupBytes = try Data(contentsOf: URL(fileURLWithPath: backup))
        let stateBefore = try Data(contentsOf: URL(fileURLWithPath: harness.statePath))

        let damaged = try await harness.runTool(["verify", "--state-directory", harness.stateDirectory])
        #expect(damaged.status == 65, "\(damaged.output)")
        #expect(damaged.output.contains("DAMAGED \(backup): "), "\(damaged.output)")
        #expect(damaged.output.contains("DAMAGED \(segmentPath): "), "\(damaged.output)")
        #expect(damaged.output.contains("ok \(harness.statePath)"), "the state file itself is whole: \(damaged.output)")
        // The state file, the backup and the history's five files (two snapshots, two segments, the manifest).
        #expect(damaged.output.contains("2 of 7 file(s) damaged"), "\(damaged.output)")
        // Nothing was rewritten, moved or deleted.
        #expect(try Data(contentsOf: URL(fileURLWithPath: backup)) == backupBytes)
        #expect(try Data(contentsOf: URL(fileURLWithPath: segmentPath)) == segmentBytes)
        #expect(try Data(contentsOf: URL(fileURLWithPath: harness.statePath)) == stateBefore)
    }

    /// With `replica.url` configured, verify restores the replica's newest state aside and loads it; a changed
    /// byte in one of its objects is named.
    @Test func theReplicasNewestStateIsRestoredAsideAndLoaded() async throws {
        let harness = try TestDaemon()
        let credentials = try ReplicaProcessTests.credentials(harness)
        try harness.writeConfig(
            """
            {"replica": {"url": "file://\(harness.root)/replica", "syncIntervalMilliseconds": 100}}
            """)
        let environment = ["CREDENTIALS_DIRECTORY": credentials]
        let daemon = try harness.start(environment: environment, output: "daemon.log")
        #expect(await harness.becomesReady(), "\(daemon.output)")
        for name in ["one", "two"] {
            let created = try await curl(
                harness.socketPath, "POST", "/v1/favorites", body: #"{"name":"\#(name)","path":"/\#(name)"}"#)
            #expect(created.status == 201)
        }
        #expect(await ReplicaProcessTests.caughtUp(harness), "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit() == 0)
        let arguments = ["verify", "--config", harness.configPath, "--state-directory", harness.stateDirectory]
        let url = "file://\(harness.root)/replica"
        let clean = try await harness.runTool(arguments, environment: environment)
        #expect(clean.status == 0, "\(clean.output)")
        #expect(clean.output.contains("ok \(url): lineage "), "\(clean.output)")
        #expect(clean.output.contains("every SHA-256 checked and the state loaded"), "\(clean.output)")
        let skipped = try await harness.runTool(arguments + ["--no-replica"], environment: environment)
        #expect(skipped.status == 0 && !skipped.output.contains(url), "\(skipped.output)")

        // One byte of a journal piece changes (a sealed object: its SHA-256 no longer matches its name).
        let replica = harness.root + "/replica"
        let piece = try #require(
            try FileManager.default.subpathsOfDirectory(atPath: replica).sorted().last {
                $0.contains("/journal.") && $0.split(separator: "/").count == 3
            })
        var bytes = try Data(contentsOf: URL(fileURLWithPath: replica + "/" + piece))
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: replica + "/" + piece))
        let damaged = try await harness.runTool(arguments, environment: environment)
        #expect(damaged.status == 65, "\(damaged.output)")
        #expect(damaged.output.contains("DAMAGED \(url): "), "\(damaged.output)")
        #expect(damaged.output.contains(piece.split(separator: "/").last.map(String.init) ?? "?"), "\(damaged.output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: replica + "/" + piece)) == bytes, "nothing is rewritten")
    }

    @Test func anEmptyStateDirectoryHasNothingToVerify() async throws {
        let harness = try TestDaemon()
        let empty = try await harness.runTool(["verify", "--state-directory", harness.stateDirectory])
        #expect(empty.status == 66, "\(empty.output)")
        #expect(empty.output.contains("nothing to verify"), "\(empty.output)")
    }
}
