import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Where `workspacectl` goes with neither `--socket` nor `WORKSPACED_SOCKET`: the system socket.
@Suite("workspacectl's default socket")
struct DefaultSocketTests {
    static let systemSocket = "/run/workspaced/control.sock"

    /// Root, unshare(1) and a mount namespace of our own (for a private /run). The probe is waited for without
    /// holding a thread of the cooperative pool.
    static func privateRunIsPossible() async -> Bool {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        return (try? await runCommand(["/usr/bin/unshare", "--mount", "/bin/true"]))?.status == 0
    }

    /// Runs `/bin/sh -c script` in a new mount namespace with a fresh tmpfs on /run, then execs the rest of its
    /// arguments; `$1` is `link` (a socket path to link at the system socket's place, or empty for none).
    static func privateRun(linking link: String) -> [String] {
        let script = """
            mount -t tmpfs tmpfs /run && mkdir /run/workspaced && \
            { [ -z "$1" ] || ln -s "$1" \(systemSocket); } && shift && exec "$@"
            """
        return ["/usr/bin/unshare", "--mount", "/bin/sh", "-c", script, "sh", link]
    }

    @Test(
        "without --socket or WORKSPACED_SOCKET an unreachable daemon is reported at the system socket",
        .enabled(if: !FileManager.default.fileExists(atPath: systemSocket), "a daemon listens on the system socket"))
    func unreachableSystemSocket() async throws {
        let result = try await workspacectl(["status"], socket: nil)
        #expect(result.status == 69)
        #expect(result.output.contains(Self.systemSocket), "\(result.output)")
    }

    @Test(
        "without --socket or WORKSPACED_SOCKET the request goes to /run/workspaced/control.sock",
        .enabled("needs root and unshare --mount for a private /run") {
            await DefaultSocketTests.privateRunIsPossible()
        })
    func systemSocketIsTheDefault() async throws {
        let stub = try await StubDaemon(json: Sample.owner)
        let (result, requests) = try await withStub(stub) { stub in
            let result = try await workspacectl(
                ["owner", "show"], socket: nil, launcher: Self.privateRun(linking: stub.socketPath))
            return (result, stub.requests)
        }
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("ana <ana@example.org>"))
        #expect(requests.map(\.target) == ["/v1/owner"])

        let nothingThere = try await workspacectl(
            ["owner", "show"], socket: nil, launcher: Self.privateRun(linking: ""))
        #expect(nothingThere.status == 69)
        #expect(nothingThere.output.contains(Self.systemSocket), "\(nothingThere.output)")
    }
}
