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
        let harness = try DaemonHarness()
        // A version-1 file: the start migrates it and keeps its original bytes as workspace.json.v1.bak.
        try harness.writeState(try WorkspaceFixtures.data("versions/v1.json"))
        let history = HistoryProcessTests()
        _ = try await history.run(harness, ["one", "two"], output: "first.log")
        _ = try await history.run(harness, ["three"], output: "second.log")
        let backup = harness.stateDirectory + "/workspace.json.v1.bak"
        #expect(FileManager.default.fileExists(atPath: backup))

        let clean = try await harness.runToolAsync(["verify", "--state-directory", harness.stateDirectory])
        #expect(clean.status == 0, "\(clean.output)")
        #expect(clean.output.contains("ok \(harness.statePath): version 4"), "\(clean.output)")
        #expect(clean.output.contains("ok \(backup): pre-migration backup, version 1"), "\(clean.output)")
        #expect(clean.output.contains("every SHA-256 and change checked"), "\(clean.output)")
        #expect(clean.output.contains("every file is whole (7 checked)"), "\(clean.output)")

        // A changed byte in the backup's JSON: it no longer loads. Written as a new file: the backup shares its
        // inode with the history's first snapshot (both are links to the file the start found), and a byte rotting
        // in place would damage both names.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: backup))
        let brace = try #require(bytes.firstIndex(of: UInt8(ascii: "{")))
        bytes[brace] = UInt8(ascii: "[")
        try bytes.write(to: URL(fileURLWithPath: backup), options: .atomic)
        // And one in a history segment.
        let directory = harness.stateDirectory + "/workspace.json.history"
        let segment = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory).sorted().first { $0.hasPrefix("journal.") })
        var segmentBytes = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + segment))
        segmentBytes[segmentBytes.count - 2] ^= 0x20
        try segmentBytes.write(to: URL(fileURLWithPath: directory + "/" + segment))
        let stateBefore = try Data(contentsOf: URL(fileURLWithPath: harness.statePath))

        let damaged = try await harness.runToolAsync(["verify", "--state-directory", harness.stateDirectory])
        #expect(damaged.status == 65, "\(damaged.output)")
        #expect(damaged.output.contains("DAMAGED \(backup): "), "\(damaged.output)")
        #expect(damaged.output.contains("DAMAGED \(directory)/\(segment): "), "\(damaged.output)")
        #expect(damaged.output.contains("ok \(harness.statePath)"), "the state file itself is whole: \(damaged.output)")
        // The state file, the backup and the history's five files (two snapshots, two segments, the manifest).
        #expect(damaged.output.contains("2 of 7 file(s) damaged"), "\(damaged.output)")
        // Nothing was rewritten, moved or deleted.
        #expect(try Data(contentsOf: URL(fileURLWithPath: backup)) == bytes)
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + segment)) == segmentBytes)
        #expect(try Data(contentsOf: URL(fileURLWithPath: harness.statePath)) == stateBefore)
    }

    @Test func anEmptyStateDirectoryHasNothingToVerify() async throws {
        let harness = try DaemonHarness()
        let empty = try await harness.runToolAsync(["verify", "--state-directory", harness.stateDirectory])
        #expect(empty.status == 66, "\(empty.output)")
        #expect(empty.output.contains("nothing to verify"), "\(empty.output)")
    }
}
