import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The change journal on the workspaced binary: a SIGKILL after answered changes, `workspaced check` saying what
/// a start would replay (and changing nothing), the start replaying it, and `/v1/status` and the log saying so.
@Suite("workspaced's change journal after a SIGKILL")
struct JournalProcessTests {
    @Test func checkTellsWhatAStartReplaysAndTheStartDoesIt() async throws {
        let harness = try TestDaemon()
        try harness.writeState(try WorkspaceFixtures.data("versions/v4.json"))
        let first = try harness.start(output: "first.log")
        #expect(await harness.becomesReady(), "\(first.output)")
        for name in ["one", "two", "three"] {
            let created = try await curl(
                harness.socketPath, "POST", "/v1/favorites", body: #"{"name":"\#(name)","path":"/\#(name)"}"#)
            #expect(created.status == 201)
        }
        let stateBefore = try harness.stateBytes()
        first.send(SIGKILL)
        _ = await first.waitForExit()
        #expect(try harness.stateBytes() == stateBefore, "the kill came before any snapshot")

        let names = { try FileManager.default.contentsOfDirectory(atPath: harness.stateDirectory).sorted() }
        let before = try names()
        let check = try await harness.runTool(["check", "--state", harness.statePath])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("journal: 3 change(s) a start would replay"), "\(check.output)")
        #expect(try names() == before, "check changes nothing")

        let (second, ready, _) = try await harness.startUntilReadyOrExit(output: "second.log")
        #expect(ready, "\(second.output)")
        #expect(second.output.contains("journal: 3 change(s) replayed"), "\(second.output)")
        let favorites = try await curl(harness.socketPath, "GET", "/v1/favorites")
        for name in ["one", "two", "three"] { #expect(favorites.body.contains(#""name":"\#(name)""#)) }
        let status = try await curl(harness.socketPath, "GET", "/v1/status")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.body.utf8)) as? [String: Any])
        let journal = try #require(object["journal"] as? [String: Any], "\(status.body)")
        #expect(journal["recordsReplayedAtStart"] as? Int == 3)
        #expect(journal["failing"] == nil || journal["failing"] is NSNull)
        second.send(SIGTERM)
        #expect(await second.waitForExit() == 0)
        let after = try await harness.runTool(["check", "--state", harness.statePath])
        #expect(after.output.contains("journal: no change to replay"), "\(after.output)")
    }

    /// Issue 47: a SIGKILL before the first snapshot leaves no state file, only the journal. `check` says what a
    /// start serves (exit 0, not "no such file"), the start's STATUS says it replayed the changes (not "started
    /// empty"), and the replayed state is written within the maximum delay without another change.
    @Test func aJournalWithoutAStateFileIsAStateAndIsSnapshotted() async throws {
        let harness = try TestDaemon()  // a minute of debounce: no snapshot before the kill
        let first = try harness.start(output: "first.log")
        #expect(await harness.becomesReady(), "\(first.output)")
        for name in ["one", "two"] {
            let created = try await curl(
                harness.socketPath, "POST", "/v1/favorites", body: #"{"name":"\#(name)","path":"/\#(name)"}"#)
            #expect(created.status == 201)
        }
        first.send(SIGKILL)
        _ = await first.waitForExit()
        #expect(!FileManager.default.fileExists(atPath: harness.statePath), "no snapshot before the kill")
        let check = try await harness.runTool(["check"], environment: ["STATE_DIRECTORY": harness.stateDirectory])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("no such file: a start serves the initial state"), "\(check.output)")
        #expect(check.output.contains("journal: 2 change(s) a start would replay"), "\(check.output)")

        try harness.writeConfig(#"{"save": {"debounceMilliseconds": 200, "maximumDelayMilliseconds": 1000}}"#)
        let earlier = harness.messages().count
        let second = try harness.start(output: "second.log")
        let ready = await harness.waitForMessage { $0.contains("READY=1") && $0.contains("replayed 2 changes") }
        #expect(ready, "\(harness.messages()) \(second.output)")
        let since = harness.messages().dropFirst(earlier)
        #expect(!since.contains { $0.contains("STATUS=") && $0.contains("started from the initial") }, "\(since)")
        let written = await eventually {
            FileManager.default.fileExists(atPath: harness.statePath)
        }
        #expect(written, "the replayed changes were not snapshotted without a change")
        let stored = try String(decoding: harness.stateBytes(), as: UTF8.self)
        for name in ["one", "two"] { #expect(stored.contains(#""name":"\#(name)""#), "\(stored)") }
        let status = try await curl(harness.socketPath, "GET", "/v1/status")
        #expect(status.body.contains("replayed 2 changes from the change journal"), "\(status.body)")
        second.send(SIGTERM)
        #expect(await second.waitForExit() == 0)
    }
}
