import Foundation
import TestSupport
import Testing
import WorkspaceAPI

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's scrub (issue 44, `scrub.intervalHours`, `POST /v1/scrub`) on the workspaced binary: a clean tree
/// passes; a flipped byte in a pre-migration backup and in a history segment, and a state file edited by hand, are
/// each found and named, in the answer, `/v1/status`, the metrics and the journal; nothing is rewritten.
@Suite("workspaced's scrub")
struct ScrubProcessTests {
    static func scrub(_ harness: TestDaemon) async throws -> ScrubStatusResponse {
        let answer = try await curl(harness.socketPath, "POST", "/v1/scrub")
        #expect(answer.status == 200, "\(answer.body)")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(ScrubStatusResponse.self, from: Data(answer.body.utf8))
    }

    @Test func aCleanTreePassesAndEachDamagedFileIsNamed() async throws {
        let harness = try TestDaemon()
        // A version-1 file: the start migrates it and keeps its original bytes as workspace.json.v1.bak.
        try harness.writeState(try WorkspaceFixtures.data("versions/v1.json"))
        let history = HistoryProcessTests()
        _ = try await history.run(harness, ["one", "two"], output: "first.log")
        let backup = harness.stateDirectory + "/workspace.json.v1.bak"
        #expect(FileManager.default.fileExists(atPath: backup))

        var daemon = try await history.start(harness, output: "clean.log")
        let clean = try await Self.scrub(harness)
        #expect(clean.damaged.isEmpty && clean.lastSuccessAt != nil && clean.lastRunAt == clean.lastSuccessAt)
        #expect(clean.filesChecked >= 4, "the backup and the history's files: \(clean)")
        #expect(clean.intervalHours == 24 && clean.nextRunAt != nil && !clean.running)
        #expect(daemon.output.contains("message-id=aae0e0b7cd0e4059a19a33b149c53113"), "\(daemon.output)")
        let metrics = try await curl(harness.socketPath, "GET", "/v1/metrics")
        #expect(metrics.body.contains("\nworkspaced_scrub_failures 0.0\n"))
        #expect(metrics.body.contains("\nworkspaced_scrub_files_checked \(clean.filesChecked).0\n"))
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit() == 0)

        let (segmentPath, segmentBytes) = try damageBackupAndSegment(
            backup: backup, stateDirectory: harness.stateDirectory)
        let backupBytes = try Data(contentsOf: URL(fileURLWithPath: backup))

        daemon = try await history.start(harness, output: "damaged.log")
        // And the state file edited by hand while the daemon runs: a letter of a favorite's name changed, saved as
        // an editor saves (a new file renamed over it: the history's snapshot, a link to the old one, is untouched).
        var state = try Data(contentsOf: URL(fileURLWithPath: harness.statePath))
        let name = try #require(state.firstRange(of: Data(#""name":"one""#.utf8)))
        state[name.upperBound - 2] = UInt8(ascii: "O")
        try state.write(to: URL(fileURLWithPath: harness.statePath), options: .atomic)
        let damaged = try await Self.scrub(harness)
        let paths = Set(damaged.damaged.map(\.path))
        #expect(paths == [backup, segmentPath, harness.statePath], "\(damaged)")
        let edited = damaged.damaged.first { $0.path == harness.statePath }?.reason ?? ""
        #expect(edited.contains("changed on disk since the daemon saved it"), "\(edited)")
        #expect(damaged.lastSuccessAt == nil && damaged.lastRunAt != nil)
        let found = daemon.output.components(separatedBy: "message-id=2cd06ff3d9a240b8894c36fa02c99fcd").count - 1
        #expect(found == 3, "\(daemon.output)")
        #expect(daemon.output.contains(backup) && daemon.output.contains(segmentPath))
        let status = try await curl(harness.socketPath, "GET", "/v1/status")
        #expect(status.body.contains(#""filesChecked":\#(damaged.filesChecked)"#), "\(status.body)")
        let metrics2 = try await curl(harness.socketPath, "GET", "/v1/metrics")
        #expect(metrics2.body.contains("\nworkspaced_scrub_failures 3.0\n"))
        #expect(metrics2.body.contains("\nworkspaced_scrub_last_success_timestamp_seconds 0.0\n"))
        let shown = try RunningProcess(
            ProductPaths.executable("workspacectl"), ["status", "--socket", harness.socketPath],
            environment: ["PATH": "/usr/bin:/bin"], outputPath: harness.root + "/workspacectl.log")
        #expect(await shown.waitForExit() == 0, "\(shown.output)")
        #expect(shown.output.contains("FOUND 3 DAMAGED"), "\(shown.output)")
        #expect(shown.output.contains("DAMAGED \(backup): "), "\(shown.output)")
        // Nothing was rewritten, moved or deleted.
        #expect(try Data(contentsOf: URL(fileURLWithPath: harness.statePath)) == state)
        #expect(try Data(contentsOf: URL(fileURLWithPath: backup)) == backupBytes)
        #expect(try Data(contentsOf: URL(fileURLWithPath: segmentPath)) == segmentBytes)
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit() == 0)
    }

    /// The replica's newest state is part of the scrub, and `scrub.intervalHours = 0` schedules none.
    @Test func theReplicaIsScrubbedAndZeroSchedulesNone() async throws {
        let harness = try TestDaemon()
        let credentials = try ReplicaProcessTests.credentials(harness)
        let url = "file://\(harness.root)/replica"
        try harness.writeConfig(
            """
            {"scrub": {"intervalHours": 0}, "replica": {"url": "\(url)", "syncIntervalMilliseconds": 100}}
            """)
        let daemon = try harness.start(environment: ["CREDENTIALS_DIRECTORY": credentials], output: "daemon.log")
        #expect(await harness.becomesReady(), "\(daemon.output)")
        let created = try await curl(
            harness.socketPath, "POST", "/v1/favorites", body: #"{"name":"one","path":"/one"}"#)
        #expect(created.status == 201)
        #expect(await ReplicaProcessTests.caughtUp(harness), "\(daemon.output)")
        let scrubbed = try await Self.scrub(harness)
        #expect(scrubbed.damaged.isEmpty, "\(scrubbed)")
        #expect(scrubbed.intervalHours == 0 && scrubbed.nextRunAt == nil)
        #expect(daemon.output.contains("scrub passed"), "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit() == 0)
    }
}

/// Changes a byte of the backup's JSON, so that it no longer loads, written as a new file (the backup shares its
/// inode with the history's first snapshot: both are links to the file the start found, and a byte rotting in place
/// would damage both names), and one near the end of the oldest history segment. Returns the segment's path and
/// its damaged bytes.
func damageBackupAndSegment(backup: String, stateDirectory: String) throws -> (path: String, bytes: Data) {
    var bytes = try Data(contentsOf: URL(fileURLWithPath: backup))
    let brace = try #require(bytes.firstIndex(of: UInt8(ascii: "{")))
    bytes[brace] = UInt8(ascii: "[")
    try bytes.write(to: URL(fileURLWithPath: backup), options: .atomic)
    let directory = stateDirectory + "/workspace.json.history"
    let segment = try #require(
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted().first { $0.hasPrefix("journal.") })
    let segmentPath = directory + "/" + segment
    var segmentBytes = try Data(contentsOf: URL(fileURLWithPath: segmentPath))
    segmentBytes[segmentBytes.count - 2] ^= 0x20
    try segmentBytes.write(to: URL(fileURLWithPath: segmentPath))
    return (segmentPath, segmentBytes)
}
