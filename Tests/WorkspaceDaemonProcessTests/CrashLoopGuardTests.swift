import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The crash-loop guard on the binary: a state file whose load crashes the daemon (`workspaced-testing`'s hook
/// aborts while reading a file that holds a marker) is set aside on the start after `crashedLoadLimit` such loads,
/// and the daemon serves the newest backup that loads; a load stopped by a clean SIGTERM never counts.
@Suite("Crash-loop guard, on the binary")
struct CrashLoopGuardTests {
    static let marker = "crash-the-loader"
    static let hooks = ["WSD_TEST_HOOKS": "1", "WSD_TEST_CRASH_LOADING": marker]

    /// A version 4 file whose owner's alias holds the marker.
    static func crashingFile() throws -> Data {
        let text = String(decoding: try WorkspaceFixtures.data("versions/v4.json"), as: UTF8.self)
        let crashing = text.replacingOccurrences(of: #""alias": "margaret""#, with: #""alias": "\#(marker)""#)
        #expect(crashing != text)
        return Data(crashing.utf8)
    }

    @Test func theFourthStartSetsTheFileAsideAndServesTheBackup() async throws {
        let harness = try TestDaemon()
        let crashing = try Self.crashingFile()
        try harness.writeState(crashing)
        let backup = try WorkspaceFixtures.data("versions/v3.json")
        try backup.write(to: URL(fileURLWithPath: harness.statePath + ".v3.bak"))
        for attempt in 1...3 {
            let process = try harness.start(environment: Self.hooks, output: "attempt-\(attempt).log")
            let status = await process.waitForExit()
            #expect(status != nil && status != 0, "attempt \(attempt) exited \(String(describing: status))")
            #expect(process.output.contains("test hook: crashing while loading"), "\(process.output)")
            #expect(try harness.stateBytes() == crashing, "attempt \(attempt) changed the file")
        }
        let check = try await harness.runTool(["check", "--state", harness.statePath])
        #expect(check.output.contains("unfinished loads: 3 (loads of this file that crashed"), "\(check.output)")

        let process = try harness.start(environment: Self.hooks, output: "fourth.log")
        #expect(await harness.becomesReady(), "\(process.output)")
        let ready = harness.messages().last { $0.contains("READY=1") } ?? ""
        #expect(ready.contains("state file set aside: its load never finished 3 times in a row"), "\(ready)")
        #expect(ready.contains("restored from backup workspace.json.v3.bak"), "\(ready)")
        #expect(process.output.contains("922fbbb61724473cab120b3740fb12c2"), "the journal entry's MESSAGE_ID")
        let status = try await curl(harness.socketPath, "GET", "/v1/status")
        let load = (try JSONSerialization.jsonObject(with: Data(status.body.utf8)) as? [String: Any])?["load"]
        let fields = try #require(load as? [String: Any], "\(status.body)")
        #expect(fields["crashedLoadAttempts"] as? Int == 3)
        #expect(fields["restoredFromBackup"] as? String == "workspace.json.v3.bak")
        let kept = try #require(fields["crashedLoadPath"] as? String)
        #expect(try Data(contentsOf: URL(fileURLWithPath: kept)) == crashing, "the crashing bytes are kept")
        let workspace = try await curl(harness.socketPath, "GET", "/v1/workspace")
        #expect(workspace.body.contains("\"alias\":\"alan\""), "the backup's owner: \(workspace.body)")
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0)

        let after = try await harness.runTool(["check", "--state", harness.statePath])
        #expect(!after.output.contains("unfinished loads: "), "\(after.output)")
        #expect(after.output.contains("last set aside: \(kept)"), "\(after.output)")
    }

    /// Starts stopped with SIGTERM while they load (the signal is sent when the daemon says `loading`), more
    /// times than the limit: the guard never fires, and the file is loaded and served as it is.
    @Test func cleanStopsDuringTheLoadNeverCount() async throws {
        let harness = try TestDaemon()
        let original = try WorkspaceFixtures.data("versions/v4.json")
        try harness.writeState(original)
        for attempt in 1...4 {
            let loading = Self.count(harness, "STATUS=loading")
            let process = try harness.start(output: "stop-\(attempt).log")
            #expect(await eventually { Self.count(harness, "STATUS=loading") > loading })
            process.send(SIGTERM)
            let status = await process.waitForExit()
            #expect(status == 0, "attempt \(attempt) exited \(String(describing: status)): \(process.output)")
        }
        let ready = Self.count(harness, "READY=1")
        let process = try harness.start(output: "last.log")
        #expect(await eventually { Self.count(harness, "READY=1") > ready }, "\(process.output)")
        let line = harness.messages().last { $0.contains("READY=1") } ?? ""
        #expect(!line.contains("set aside"), "\(line)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: harness.stateDirectory).allSatisfy {
                !$0.contains(".corrupt-")
            })
        process.send(SIGTERM)
        let status = await process.waitForExit()
        #expect(status == 0, "exited \(String(describing: status)): \(process.output)")
    }

    /// How many notify datagrams so far (of every process the harness started) hold `text`.
    static func count(_ harness: TestDaemon, _ text: String) -> Int {
        harness.messages().filter { $0.contains(text) }.count
    }
}
