import Foundation
import NIOHTTP1
import StateStoreTesting
import Testing
import WorkspaceDaemon

/// The systemd STATUS line follows the saves: failing, then back to the ready line once a save succeeds.
@Suite("STATUS while saves fail, in process")
struct SaveStatusLineTests {
    @Test func theStatusLineSaysSavingFailedAndReturnsToTheReadyLineAfterRecovery() async throws {
        let world = try await InProcessDaemon()
        let run = Task { await world.lifecycle.run(world.daemon) }
        let running = try #require(await world.lifecycle.whenRunning())
        let readyLine = try #require(world.datagrams.last { $0.contains("READY=1") })
        let ready = try #require(readyLine.split(separator: "\n").first { $0.hasPrefix("STATUS=") })
        #expect(
            (await world.request(running, .POST, "/v1/favorites", #"{"name": "A", "path": "/a"}"#)).status == .created)

        world.fileSystem.inject(.create, errno: ENOSPC, repeating: true)
        // flushSynchronously saves on this thread and tells the observer before it returns.
        #expect(throws: (any Error).self) { try running.state.flushSynchronously() }
        let failing = try #require(world.datagrams.last)
        #expect(failing.hasPrefix("STATUS=saving FAILED since "), "\(failing)")
        #expect(failing.hasSuffix(" UTC: ENOSPC (No space left on device)"), "\(failing)")
        #expect(throws: (any Error).self) { try running.state.flushSynchronously() }
        #expect(world.datagrams.last == failing, "the line keeps the time of the first failure")

        world.fileSystem.clearFaults()
        try running.state.flushSynchronously()
        #expect(world.datagrams.last == String(ready), "back to the ready line without a restart")
        await world.signal(.stop(signal: SIGTERM))
        #expect(await run.value == .success)
    }
}
