import Foundation
import TestSupport
import Testing
import WorkspaceAPI
import WorkspaceDaemon

/// One release, everywhere it is shown.
@Suite("The release")
struct VersionTests {
    @Test(arguments: ["workspaced", "workspacectl"])
    func versionPrintsTheRelease(binary: String) async throws {
        let output = FileManager.default.temporaryDirectory.path + "/version-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let process = try RunningProcess(
            ProductPaths.executable(binary), ["--version"], environment: ["PATH": "/usr/bin:/bin"],
            outputPath: output)
        #expect(await exitStatus(of: process, timeout: .seconds(20)) == 0)
        #expect(process.output.trimmingCharacters(in: .whitespacesAndNewlines) == Release.version)
    }

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
