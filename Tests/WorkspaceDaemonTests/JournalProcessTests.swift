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
        let harness = try DaemonHarness()
        try harness.writeState(try WorkspaceFixtures.data("versions/v4.json"))
        let first = try harness.start(output: "first.log")
        #expect(await harness.becomesReady(), "\(first.output)")
        for name in ["one", "two", "three"] {
            let created = try await curlAsync(
                harness.socketPath, "POST", "/v1/favorites", body: #"{"name":"\#(name)","path":"/\#(name)"}"#)
            #expect(created.status == 201)
        }
        let stateBefore = try harness.stateBytes()
        first.send(SIGKILL)
        _ = await exitStatus(of: first, timeout: .seconds(20))
        #expect(try harness.stateBytes() == stateBefore, "the kill came before any snapshot")

        let names = { try FileManager.default.contentsOfDirectory(atPath: harness.stateDirectory).sorted() }
        let before = try names()
        let check = try await harness.runToolAsync(["check", "--state", harness.statePath])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("journal: 3 change(s) a start would replay"), "\(check.output)")
        #expect(try names() == before, "check changes nothing")

        let readyBefore = harness.messages().filter { $0.split(separator: "\n").contains("READY=1") }.count
        let second = try harness.start(output: "second.log")
        let ready = await eventually(timeout: .seconds(30)) {
            harness.messages().filter { $0.split(separator: "\n").contains("READY=1") }.count > readyBefore
        }
        #expect(ready, "\(second.output)")
        #expect(second.output.contains("journal: 3 change(s) replayed"), "\(second.output)")
        let favorites = try await curlAsync(harness.socketPath, "GET", "/v1/favorites")
        for name in ["one", "two", "three"] { #expect(favorites.body.contains(#""name":"\#(name)""#)) }
        let status = try await curlAsync(harness.socketPath, "GET", "/v1/status")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.body.utf8)) as? [String: Any])
        let journal = try #require(object["journal"] as? [String: Any], "\(status.body)")
        #expect(journal["recordsReplayedAtStart"] as? Int == 3)
        #expect(journal["failing"] == nil || journal["failing"] is NSNull)
        second.send(SIGTERM)
        #expect(await exitStatus(of: second, timeout: .seconds(20)) == 0)
        let after = try await harness.runToolAsync(["check", "--state", harness.statePath])
        #expect(after.output.contains("journal: no change to replay"), "\(after.output)")
    }
}
