import Foundation
import Systemd
import Testing

/// `CgroupMemoryLimit` on a hierarchy written in a temporary directory, and on this machine's own.
@Suite("cgroup memory limit")
struct CgroupMemoryLimitTests {
    /// A fake `/proc/self/cgroup` and `/sys/fs/cgroup` with `memory.max` files at the given cgroup paths.
    static func world(membership: String, limits: [String: String]) throws -> (CgroupMemoryLimit, String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cgroup-\(UUID())").path
        for (path, value) in limits {
            let directory = root + "/fs" + path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data(value.utf8).write(to: URL(fileURLWithPath: directory + "/memory.max"))
        }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data(membership.utf8).write(to: URL(fileURLWithPath: root + "/cgroup"))
        return (CgroupMemoryLimit(procSelfCgroup: root + "/cgroup", cgroupRoot: root + "/fs"), root)
    }

    @Test func theSmallestLimitOnThePathApplies() throws {
        let (limit, root) = try Self.world(
            membership: "0::/system.slice/workspaced.service\n",
            limits: [
                "/system.slice/workspaced.service": "1073741824\n", "/system.slice": "536870912\n", "": "max\n",
            ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(limit.bytes() == 536_870_912)
    }

    @Test func maxEverywhereOrNoCgroupV2IsNoLimit() throws {
        let (unlimited, first) = try Self.world(
            membership: "0::/user.slice\n", limits: ["/user.slice": "max\n", "": "max\n"])
        defer { try? FileManager.default.removeItem(atPath: first) }
        #expect(unlimited.bytes() == nil)
        #expect(CgroupMemoryLimit(procSelfCgroup: "/nonexistent/cgroup").bytes() == nil)
    }

    /// A hybrid host whose memory controller is on the legacy hierarchy: v1's `memory.limit_in_bytes`, where
    /// "unlimited" is the page-rounded maximum.
    @Test func theLegacyMemoryHierarchyIsReadOnAHybridHost() throws {
        let (limit, root) = try Self.world(
            membership: "4:memory:/system.slice/workspaced.service\n1:cpu:/\n0::/system.slice/workspaced.service\n",
            limits: [:])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let service = root + "/fs/memory/system.slice/workspaced.service"
        try FileManager.default.createDirectory(atPath: service, withIntermediateDirectories: true)
        try Data("9223372036854771712\n".utf8).write(
            to: URL(fileURLWithPath: root + "/fs/memory/memory.limit_in_bytes"))
        #expect(limit.bytes() == nil, "unlimited")
        try Data("268435456\n".utf8).write(to: URL(fileURLWithPath: service + "/memory.limit_in_bytes"))
        #expect(limit.bytes() == 268_435_456)
    }

    /// The kernel ends a value with a newline; white space around it is dropped, anything else is no number.
    @Test func aLimitIsOneNumberWithWhiteSpaceAround() throws {
        let (padded, first) = try Self.world(
            membership: "0::/system.slice\n", limits: ["/system.slice": " \t67108864 \n"])
        defer { try? FileManager.default.removeItem(atPath: first) }
        #expect(padded.bytes() == 67_108_864)
        let (twoNumbers, second) = try Self.world(
            membership: "0::/system.slice\n", limits: ["/system.slice": "67108864 1\n"])
        defer { try? FileManager.default.removeItem(atPath: second) }
        #expect(twoNumbers.bytes() == nil)
    }

    @Test func theServiceLimitIsRead() throws {
        let (limit, root) = try Self.world(
            membership: "0::/system.slice/workspaced.service\n",
            limits: ["/system.slice/workspaced.service": "67108864\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(limit.bytes() == 67_108_864)
    }
}
