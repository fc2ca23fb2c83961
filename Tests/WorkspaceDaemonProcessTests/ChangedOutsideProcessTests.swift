import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A state file edited by hand between two runs of the workspaced binary (issue 44): every save records a checksum
/// of the file's content, and a start that finds it no longer matching warns, naming the file, and serves the file
/// as it is; `check` and `verify` name it too. A restart after the daemon saved again warns of nothing.
@Suite("workspaced and a state file edited by hand")
struct ChangedOutsideProcessTests {
    /// The warning's MESSAGE_ID as the stderr log writes it.
    static let changedOutside = "message-id=80d1cdb39f0843c598dee023f3597d1f"

    /// Starts the daemon and waits for this start's READY=1 (the notify socket keeps the earlier starts' too).
    func start(_ harness: TestDaemon, output: String) async throws -> RunningProcess {
        let (daemon, ready, _) = try await harness.startUntilReadyOrExit(output: output)
        #expect(ready, "\(daemon.output)")
        return daemon
    }

    /// Creates the favorite `name`, then stops the daemon with SIGTERM (a clean stop: the flush saves).
    func addAndStop(_ daemon: RunningProcess, _ harness: TestDaemon, name: String) async throws {
        let created = try await curl(
            harness.socketPath, "POST", "/v1/favorites", body: #"{"name":"\#(name)","path":"/\#(name)"}"#)
        #expect(created.status == 201, "\(created.body)")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit() == 0, "\(daemon.output)")
    }

    @Test func aStateFileEditedByHandIsFoundAndNamedAndServedAsItIs() async throws {
        let harness = try TestDaemon()
        let first = try await start(harness, output: "first.log")
        try await addAndStop(first, harness, name: "alpha")
        #expect(!first.output.contains(Self.changedOutside), "\(first.output)")
        let saved = String(decoding: try harness.stateBytes(), as: UTF8.self)
        #expect(saved.contains(#""name":"alpha""#), "\(saved)")
        #expect(saved.firstMatch(of: /,"contentChecksum":"crc32c:[0-9a-f]{8}"}$/) != nil, "\(saved)")

        // A clean restart: the file is as the daemon left it.
        let second = try await start(harness, output: "second.log")
        try await addAndStop(second, harness, name: "beta")
        #expect(!second.output.contains(Self.changedOutside), "\(second.output)")

        // A person changes one letter inside a string value.
        let clean = String(decoding: try harness.stateBytes(), as: UTF8.self)
        try harness.writeState(Data(clean.replacingOccurrences(of: #""name":"alpha""#, with: #""name":"alphb""#).utf8))

        let check = try await harness.runTool(["check", "--state", harness.statePath])
        #expect(check.status == 0, "an edited file is loadable: \(check.output)")
        #expect(check.output.contains("changed outside the daemon since its last save"), "\(check.output)")
        let json = try await harness.runTool(["check", "--state", harness.statePath, "--json"])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any], "\(json.output)")
        let changed = try #require(report["changedOutsideDaemon"] as? [String: String], "\(json.output)")
        #expect(changed["recorded"]?.hasPrefix("crc32c:") == true && changed["recorded"] != changed["computed"])
        let verify = try await harness.runTool(["verify", "--state-directory", harness.stateDirectory])
        #expect(verify.status == 0, "edited is not damaged: \(verify.output)")
        let line = verify.output.split(separator: "\n").first { $0.contains(" \(harness.statePath):") }
        #expect(line?.hasPrefix("ok ") == true, "\(verify.output)")
        #expect(line?.contains("changed outside the daemon since its last save") == true, "\(verify.output)")
        #expect(verify.output.contains("1 changed outside the daemon since its last save"), "\(verify.output)")

        let third = try await start(harness, output: "third.log")
        let warning = third.output.split(separator: "\n").first { $0.contains(Self.changedOutside) }
        #expect(
            warning?.contains("state file \(harness.statePath) changed outside the daemon") == true, "\(third.output)")
        #expect(warning?.contains("it loaded as it is") == true, "\(third.output)")
        #expect(warning?.contains("computed_checksum=crc32c:") == true, "\(third.output)")
        let favorites = try await curl(harness.socketPath, "GET", "/v1/favorites")
        #expect(favorites.body.contains(#""name":"alphb""#), "the edit is served: \(favorites.body)")
        #expect(favorites.body.contains(#""name":"beta""#), "\(favorites.body)")
        try await addAndStop(third, harness, name: "gamma")

        // The daemon saved since: the file matches its checksum again, and a start warns of nothing.
        let fourth = try await start(harness, output: "fourth.log")
        let after = try await curl(harness.socketPath, "GET", "/v1/favorites")
        #expect(after.body.contains(#""name":"alphb""#) && after.body.contains(#""name":"gamma""#), "\(after.body)")
        fourth.send(SIGTERM)
        #expect(await fourth.waitForExit() == 0)
        #expect(!fourth.output.contains(Self.changedOutside), "\(fourth.output)")
        let verified = try await harness.runTool(["verify", "--state-directory", harness.stateDirectory])
        #expect(verified.status == 0 && !verified.output.contains("changed outside"), "\(verified.output)")
    }
}
