import Foundation
import TestSupport
import Testing
import WorkspaceAPI

/// The shipped units pass `systemd-analyze verify` silently (their `man:` links aside: see verifyPrintsNothing) (it exits 0 on warnings, so any output fails) and
/// the service scores ≤ 1.0 on `systemd-analyze security --offline=true`.
@Suite("systemd units")
struct UnitFileTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var analyzeAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") }

    /// The units as `make install` writes them, with ExecStart pointing at the built binary.
    private func installedUnits() throws -> String {
        var template = Array("/tmp/wsd-units-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        let service = try String(
            contentsOf: Self.repository.appendingPathComponent("systemd/workspaced.service"), encoding: .utf8
        ).replacingOccurrences(of: "/usr/local/bin/workspaced", with: ProductPaths.executable("workspaced"))
        try service.write(toFile: directory + "/workspaced.service", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            atPath: Self.repository.appendingPathComponent("systemd/workspaced.socket").path,
            toPath: directory + "/workspaced.socket")
        return directory
    }

    /// Runs `systemd-analyze` (seconds, for `verify`) without holding a thread of the cooperative pool.
    private func analyze(_ arguments: [String]) async throws -> (Int32, String) {
        let result = try await runCommand(["/usr/bin/systemd-analyze"] + arguments)
        return (result.status, result.output)
    }

    @Test(.enabled(if: analyzeAvailable, "systemd-analyze is not installed"))
    func verifyPrintsNothing() async throws {
        let directory = try installedUnits()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // --man=no: the man pages that Documentation= names are generated from the release binaries at install
        // time, so they are not on this host; system scenarios 1 and 16 verify the installed units with them.
        let (status, output) = try await analyze([
            "verify", "--man=no", directory + "/workspaced.service", directory + "/workspaced.socket",
        ])
        #expect(status == 0)
        #expect(output.isEmpty, "\(output)")
    }

    @Test(.enabled(if: analyzeAvailable, "systemd-analyze is not installed"))
    func theServiceScoresAtMostOnePointZero() async throws {
        let directory = try installedUnits()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (status, output) = try await analyze([
            "security", "--offline=true", "--threshold=10", directory + "/workspaced.service",
        ])
        #expect(status == 0, "\(output.split(separator: "\n").suffix(3).joined(separator: "\n"))")
        let score = output.split(separator: "\n").first { $0.contains("Overall exposure level") }
        #expect(score != nil)
    }

    /// The statuses a restart cannot fix are the ones systemd stops restarting on, from the one definition.
    @Test func restartPreventExitStatusNamesTheStatusesARestartCannotFix() throws {
        let unit = try String(
            contentsOf: Self.repository.appendingPathComponent("systemd/workspaced.service"), encoding: .utf8)
        let line = try #require(unit.split(separator: "\n").first { $0.hasPrefix("RestartPreventExitStatus=") })
        let listed = line.dropFirst("RestartPreventExitStatus=".count).split(separator: " ").compactMap { Int32($0) }
        let expected: [WorkspaceAPI.ExitStatus] = [.dataError, .temporaryFailure, .permissionDenied, .configuration]
        #expect(listed == expected.map(\.rawValue))
    }
}
