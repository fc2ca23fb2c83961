import Foundation
import TestSupport
import Testing
import WorkspaceDaemon

#if canImport(Glibc)
import Glibc
#endif

/// The repair and save events, as the running daemon writes them to stderr (`message-id=…` after the message).
/// Async, waiting with ``eventually(timeout:_:)``, so the waits hold no thread of the pool.
@Suite("workspaced logs its repair and save events", .serialized)
struct DaemonEventLogTests {
    /// The output lines that carry `event`'s MESSAGE_ID.
    static func lines(_ output: String, _ event: DaemonEvent) -> [Substring] {
        output.split(separator: "\n").filter { $0.contains("message-id=\(event.messageID)") }
    }

    @Test func aRepairedFileLogsOneRepairedEventPerRepairAndSavesTheFix() async throws {
        let harness = try TestDaemon()
        try harness.writeConfig(#"{"save": {"debounceMilliseconds": 20}}"#)
        try harness.writeState(try WorkspaceFixtures.data("edge/duplicate-ids.json"))
        let process = try harness.start()
        #expect(await harness.becomesReady(), "no READY=1; output: \(process.output)")
        let repaired = Self.lines(process.output, .repaired)
        #expect(repaired.count == 4, "output: \(process.output)")
        #expect(repaired.allSatisfy { $0.contains("warning") && $0.contains("repaired: ") })
        #expect(repaired.contains { $0.contains("project id 11111111-AAAA-4111-8111-111111111111") })
        #expect(harness.messages().contains { $0.contains("READY=1") && $0.contains("4 repairs") })
        // The repair is written without waiting for a client's change: the repeated ids are gone from the file.
        #expect(
            await eventually {
                let text = (try? harness.stateBytes()).map { String(decoding: $0, as: UTF8.self) } ?? ""
                return !text.contains("11111111-AAAA-4111-8111-111111111111")
                    && text.components(separatedBy: "41111111-1111-4111-8111-111111111111").count == 2
            }, "the repaired file was not saved")
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0)
    }

    @Test func aFullFileSystemLogsSaveFailedThenSaveRecoveredOnceThereIsSpace() async throws {
        let harness = try TestDaemon()
        guard
            let tmpfs = try SmallTmpfs.mountIfRoot(
                at: harness.stateDirectory,
                test: "aFullFileSystemLogsSaveFailedThenSaveRecoveredOnceThereIsSpace")
        else { return }
        defer { tmpfs.unmount() }
        try harness.writeConfig(#"{"save": {"debounceMilliseconds": 20, "maximumDelayMilliseconds": 100}}"#)
        try harness.writeState(try WorkspaceFixtures.data("versions/v4.json"))
        let process = try harness.start()
        #expect(await harness.becomesReady(), "no READY=1; output: \(process.output)")
        #expect(Self.lines(process.output, .saveFailed).isEmpty)

        try tmpfs.fill()
        let created = try await curl(
            harness.socketPath, "POST", "/v1/favorites", body: #"{"name":"full","path":"/srv/full"}"#)
        try #require(created.status == 201, "\(created)")
        #expect(
            await eventually { !Self.lines(process.output, .saveFailed).isEmpty },
            "no save-failed event; output: \(process.output)")
        let failed = try #require(Self.lines(process.output, .saveFailed).first)
        #expect(failed.contains("error") && failed.contains("save failed (1 in a row), retrying in"))
        #expect(failed.contains("failures=1"))
        #expect(!String(decoding: try harness.stateBytes(), as: UTF8.self).contains("/srv/full"))
        #expect(Self.lines(process.output, .saveRecovered).isEmpty)

        try tmpfs.remove()
        #expect(
            await eventually { !Self.lines(process.output, .saveRecovered).isEmpty },
            "no save-recovered event; output: \(process.output)")
        let recovered = try #require(Self.lines(process.output, .saveRecovered).first)
        #expect(recovered.contains("notice") && recovered.contains("save recovered after"))
        #expect(String(decoding: try harness.stateBytes(), as: UTF8.self).contains("/srv/full"))
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0)
    }
}
