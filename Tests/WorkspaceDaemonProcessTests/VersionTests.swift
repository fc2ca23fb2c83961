import Foundation
import TestSupport
import Testing
import WorkspaceAPI

/// One release, everywhere it is shown: the binaries' `--version` (the status and the ready line:
/// WorkspaceDaemonTests' VersionTests).
@Suite("The release")
struct VersionTests {
    @Test(arguments: ["workspaced", "workspacectl"])
    func versionPrintsTheRelease(binary: String) async throws {
        let result = try await runCommand([ProductPaths.executable(binary), "--version"])
        #expect(result.status == 0)
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == Release.version)
    }
}
