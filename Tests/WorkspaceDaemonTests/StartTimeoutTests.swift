import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("workspaced extends its start timeout while a load runs", .serialized)
struct StartTimeoutTests {
    /// A load of several seconds (40,000 version-1 projects, about 20 MB, in a debug build) gets the first
    /// extension with its STATUS and then one bare extension about every second, all before READY=1. Async, so
    /// the long wait holds no thread of the pool.
    @Test func aLongLoadKeepsExtendingTheTimeoutUntilReady() async throws {
        let harness = try DaemonHarness()
        try harness.writeState(await WorkspaceFixtures.largeVersion1(projects: 40_000))
        let process = try harness.start()
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
        #expect(await exitStatus(of: process, timeout: .seconds(10)) == 128 + SIGKILL)
    }

    /// The load's `duration_ms=…` from the daemon's log, for the failure message.
    static func loadDuration(_ output: String) -> String {
        guard let range = output.range(of: #"duration_ms=[0-9]+"#, options: .regularExpression) else { return "?" }
        return String(output[range])
    }
}
