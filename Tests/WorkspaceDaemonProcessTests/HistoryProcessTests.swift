import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// History on the workspaced binary (issue 42): on by default, kept in `workspace.json.history/`, checked file by
/// file by `workspaced check`, and a damaged file reported at the start without keeping the daemon from serving.
@Suite("workspaced's history")
struct HistoryProcessTests {
    /// Starts, makes `names` favorites, and stops with SIGTERM (whose flush moves the journal into the history).
    func run(_ harness: TestDaemon, _ names: [String], output: String) async throws -> RunningProcess {
        let daemon = try await start(harness, output: output)
        for name in names {
            let created = try await curl(
                harness.socketPath, "POST", "/v1/favorites", body: #"{"name":"\#(name)","path":"/\#(name)"}"#)
            #expect(created.status == 201)
        }
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit() == 0)
        return daemon
    }

    /// Starts the daemon and waits for this start's READY=1 (the notify socket keeps the earlier starts' too).
    func start(_ harness: TestDaemon, output: String) async throws -> RunningProcess {
        let (daemon, ready, _) = try await harness.startUntilReadyOrExit(output: output)
        #expect(ready, "\(daemon.output)")
        return daemon
    }

    @Test func checkVerifiesEveryHistoryFileAndTheStartReportsADamagedOne() async throws {
        let harness = try TestDaemon()
        try harness.writeState(try WorkspaceFixtures.data("versions/v4.json"))
        _ = try await run(harness, ["one", "two"], output: "first.log")
        _ = try await run(harness, ["three"], output: "second.log")
        let history = harness.stateDirectory + "/workspace.json.history"
        let names = try FileManager.default.contentsOfDirectory(atPath: history).sorted()
        #expect(names.contains("manifest.json"), "\(names)")
        #expect(names.contains { $0.hasPrefix("snapshot.") }, "\(names)")
        let segments = names.filter { $0.hasPrefix("journal.") }
        #expect(segments.count == 2, "one per run: \(names)")

        let check = try await harness.runTool(["check", "--state", harness.statePath])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("history: revisions from "), "\(check.output)")
        #expect(!check.output.contains("damaged"), "\(check.output)")

        // One byte of the first run's segment changes: check names it, and the start reports it and serves.
        let damaged = history + "/" + segments[0]
        var bytes = try Data(contentsOf: URL(fileURLWithPath: damaged))
        bytes[bytes.count - 2] ^= 0x20
        try bytes.write(to: URL(fileURLWithPath: damaged))
        let after = try await harness.runTool(["check", "--state", harness.statePath, "--json"])
        #expect(after.status == 0, "a damaged history does not make the state unloadable: \(after.output)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(after.output.utf8)) as? [String: Any], "\(after.output)")
        let listed = try #require((report["history"] as? [String: Any])?["damaged"] as? [[String: Any]])
        #expect(listed.map { $0["path"] as? String } == [damaged], "\(listed)")

        let third = try await start(harness, output: "third.log")
        // The check runs in the background once the daemon serves.
        let reported = await eventually {
            third.output.contains("history file \(damaged) is damaged")
        }
        #expect(reported, "\(third.output)")
        #expect(third.output.contains("message-id=a8b50a1e85c6412bb6f4bb5a1f8aca8b"), "\(third.output)")
        let favorites = try await curl(harness.socketPath, "GET", "/v1/favorites")
        for name in ["one", "two", "three"] { #expect(favorites.body.contains(#""name":"\#(name)""#)) }
        third.send(SIGTERM)
        #expect(await third.waitForExit() == 0)
    }

    @Test func zeroKeepSecondsTurnsHistoryOff() async throws {
        let harness = try TestDaemon()
        try harness.writeConfig(
            #"{"save": {"debounceMilliseconds": 60000, "maximumDelayMilliseconds": 60000}, "history": {"keepSeconds": 0}}"#
        )
        _ = try await run(harness, ["one"], output: "first.log")
        let names = try FileManager.default.contentsOfDirectory(atPath: harness.stateDirectory)
        #expect(!names.contains("workspace.json.history"), "\(names)")
    }

    @Test func aBadHistoryValueRefusesToStartNamingTheKey() async throws {
        let harness = try TestDaemon()
        try harness.writeConfig(#"{"history": {"maximumBytes": -1}}"#)
        let daemon = try harness.start(output: "bad.log")
        #expect(await daemon.waitForExit() == 78)
        #expect(daemon.output.contains("history.maximumBytes"), "\(daemon.output)")
    }
}
