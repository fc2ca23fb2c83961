import Foundation
import Testing
import WorkspaceAPI
import WorkspaceDaemon

/// One release, everywhere it is shown: in the status and the ready line (the binaries' `--version`:
/// WorkspaceDaemonProcessTests' VersionTests).
@Suite("The release")
struct VersionTests {
    @Test func statusAndTheReadyLineNameTheRelease() async throws {
        let world = try await InProcessDaemon()
        let running = try await world.daemon.start()
        let status = await world.request(running, .GET, "/v1/status")
        let body = try JSONSerialization.jsonObject(with: Data(status.body)) as? [String: Any]
        #expect(body?["daemonVersion"] as? String == Release.version)
        let ready = world.logs.all.first { $0.message.hasPrefix("ready: ") }
        #expect(ready?.message.hasPrefix("ready: workspaced \(Release.version), serving ") == true)
        #expect(ready?.metadata["version"] == Release.version)
        #expect(running.stop(signal: SIGTERM) == .success)
    }
}
