import Foundation
import StateStore
import TestSupport
import Testing
import WorkspaceModel

#if canImport(Glibc)
import Glibc
#endif

@Suite("workspaced extends its start timeout while a load or a journal replay runs", .serialized)
struct StartTimeoutTests {
    /// A long load (40,000 version-1 projects, about 20 MB, migrated and saved: about a second in a debug
    /// build) gets the first extension with its STATUS and then one bare extension every period, all before
    /// READY=1. The test hook makes the period 100 ms instead of a second, so that the load outlasts several
    /// periods however fast the machine. Async, so the long wait holds no thread of the pool.
    @Test func aLongLoadKeepsExtendingTheTimeoutUntilReady() async throws {
        let harness = try TestDaemon()
        try harness.writeState(await WorkspaceFixtures.largeVersion1(projects: 40_000))
        let process = try harness.start(environment: Self.period(milliseconds: 100))
        #expect(await harness.becomesReady(timeout: .seconds(120)), "no READY=1; output: \(process.output)")
        let messages = harness.messages()
        let ready = try #require(messages.firstIndex { $0.split(separator: "\n").contains("READY=1") })
        let extensions = messages[..<ready].filter { $0.contains("EXTEND_TIMEOUT_USEC=") }
        #expect(
            extensions.count >= 2,
            "\(extensions.count) extension(s) before READY=1; load: \(Self.loadDuration(process.output))")
        #expect(extensions.first?.contains("STATUS=loading \(harness.statePath)") == true)
        #expect(extensions.dropFirst().allSatisfy { $0 == "EXTEND_TIMEOUT_USEC=5000000" }, "\(extensions)")
        // Killed, not stopped: the final flush of 20 MB would only add seconds of CPU to a loaded test run.
        process.send(SIGKILL)
        #expect(await process.waitForExit() == 128 + SIGKILL)
    }

    /// A crash that left a long change journal (40,000 renames) beside a small file: the load is quick, the
    /// replay is not, and the extensions go on through the replay until READY=1 (they used to stop with the load).
    @Test func aLongJournalReplayKeepsExtendingTheTimeoutUntilReady() async throws {
        let harness = try TestDaemon()
        let project = "11111111-1111-4111-8111-111111111111"
        try harness.writeState(
            Data(
                #"{"version":4,"minReaderVersion":4,"revision":9,"lineage":"00000000000000ab","projects":[{"id":"\#(project)","name":"P","layout":"single","panes":[]}],"favorites":[],"owner":{"alias":"a","email":"a@example.com"}}"#
                    .utf8))
        let id = try #require(WorkspaceID(project))
        let renames = 40_000
        var segment = JournalFraming.frame(
            JournalSegmentFormat.Header(lineage: try #require(Lineage(rawValue: "00000000000000ab")), baseRevision: 9)
                .payload)
        let encoder = JSONEncoder()
        for index in 0..<renames {
            let change = WorkspaceChange.updateProject(id: id, name: "r\(index)", layout: nil)
            segment += JournalFraming.frame(
                JournalSegmentFormat.changePayload(
                    revision: 10 + UInt64(index), change: [UInt8](try encoder.encode(change))))
        }
        try Data(segment).write(to: URL(fileURLWithPath: harness.statePath + ".journal.9"))
        let process = try harness.start(environment: Self.period(milliseconds: 50))
        #expect(await harness.becomesReady(timeout: .seconds(120)), "no READY=1; output: \(process.output)")
        #expect(process.output.contains("records=\(renames)"), "\(process.output)")
        let messages = harness.messages()
        let ready = try #require(messages.firstIndex { $0.split(separator: "\n").contains("READY=1") })
        let bare = messages[..<ready].filter { $0 == "EXTEND_TIMEOUT_USEC=5000000" }
        // The load of this file takes a few milliseconds and the replay about a second in a debug build (0.5 s
        // on the fastest machine): the timer's first extension comes one period (50 ms) after the load starts,
        // so only an extension that lasts through the replay sends one.
        #expect(bare.count >= 1, "no extension after the load's; output: \(process.output)")
        process.send(SIGKILL)
        #expect(await process.waitForExit() == 128 + SIGKILL)
    }

    /// The environment that makes `workspaced-testing` extend its start timeout every `milliseconds`.
    static func period(milliseconds: Int) -> [String: String] {
        ["WSD_TEST_HOOKS": "1", "WSD_TEST_START_EXTENSION_MS": String(milliseconds)]
    }

    /// The load's `duration_ms=…` from the daemon's log, for the failure message.
    static func loadDuration(_ output: String) -> String {
        guard let range = output.range(of: #"duration_ms=[0-9]+"#, options: .regularExpression) else { return "?" }
        return String(output[range])
    }
}
