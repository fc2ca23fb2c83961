import Foundation
import Systemd
import TestSupport
import Testing
import WorkspaceDaemon

#if canImport(Glibc)
import Glibc
#endif

/// A state file too large for the service's memory limit is refused before the load (exit 78, which the unit
/// does not restart), naming the limit and what to raise it to, with the file unchanged; one that fits loads.
/// The binary reads the limit from a cgroup hierarchy the test writes (`workspaced-testing`'s
/// `WSD_TEST_CGROUP_ROOT`).
@Suite("Memory limit before the load")
struct MemoryLimitTests {
    /// A version 4 workspace of `favorites` favorites (about 110 bytes each).
    static func workspace(favorites: Int) -> Data {
        let entries = (0..<favorites).map { index in
            let hex = String(index, radix: 16)
            let id = "31111111-1111-4111-8111-" + String(repeating: "0", count: 12 - hex.count) + hex
            return #"{"id": "\#(id)", "name": "favorite \#(index)", "path": "/srv/favorites/\#(index)"}"#
        }
        let text =
            #"{"version": 4, "minReaderVersion": 4, "projects": [], "activeProjectID": null, "#
            + #""owner": {"alias": "a", "email": ""}, "favorites": [\#(entries.joined(separator: ", "))]}"#
        return Data(text.utf8)
    }

    /// A cgroup hierarchy whose service cgroup has `memory.max` = `limit`.
    static func cgroup(in root: String, limit: UInt64) throws {
        let service = root + "/fs/system.slice/workspaced.service"
        try FileManager.default.createDirectory(atPath: service, withIntermediateDirectories: true)
        try Data("\(limit)\n".utf8).write(to: URL(fileURLWithPath: service + "/memory.max"))
        try Data("0::/system.slice/workspaced.service\n".utf8).write(to: URL(fileURLWithPath: root + "/cgroup"))
    }

    @Test func theEstimateAndItsRefusal() {
        let estimate = LoadMemoryEstimate(fileBytes: 50 << 20)
        #expect(estimate.peakBytes == (40 << 20) + 5 * (50 << 20))
        #expect(estimate.refusal(limit: nil, path: "/s") == nil)
        #expect(estimate.refusal(limit: 1 << 30, path: "/s") == nil, "the unit's 1 GB holds a 50 MB file")
        let refusal = estimate.refusal(limit: 256 << 20, path: "/s/workspace.json")
        #expect(refusal?.limitBytes == 256 << 20)
        #expect(
            refusal?.description
                == "/s/workspace.json (50 MB) would take about 290 MB of memory to load (5 × the file + 40 MB), more "
                + "than the service's memory limit of 256 MB (MemoryMax=); raise MemoryMax= to at least 290 MB "
                + "(systemctl edit workspaced) and start again. The file was not changed")
    }

    @Test func aFileTooLargeForTheLimitIsRefusedWith78AndKept() async throws {
        let harness = try TestDaemon()
        let state = Self.workspace(favorites: 3_000)
        #expect(state.count > 300_000)
        try harness.writeState(state)
        let cgroup = harness.root + "/cgroup-fake"
        // 40 MB and a half: the estimate for 300 KB (41.5 MB) is over it; for the 700-byte fixture, under it.
        try Self.cgroup(in: cgroup, limit: (40 << 20) + (1 << 19))
        let hooks = ["WSD_TEST_HOOKS": "1", "WSD_TEST_CGROUP_ROOT": cgroup]
        let refused = try harness.start(environment: hooks, output: "refused.log")
        #expect(await refused.waitForExit() == 78, "\(refused.output)")
        #expect(
            refused.output.contains("more than the service's memory limit of 41 MB (MemoryMax=)"), "\(refused.output)")
        #expect(harness.messages().contains { $0.contains("STATUS=refusing to start: ") && $0.contains("MemoryMax=") })
        #expect(try harness.stateBytes() == state, "the file was not changed")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: harness.stateDirectory) == ["workspace.json"],
            "not even locked: refused before the load")

        try harness.writeState(try WorkspaceFixtures.data("versions/v4.json"))
        let fits = try harness.start(environment: hooks, output: "fits.log")
        #expect(await harness.becomesReady(), "\(fits.output)")
        fits.send(SIGTERM)
        #expect(await fits.waitForExit() == 0)
    }
}
