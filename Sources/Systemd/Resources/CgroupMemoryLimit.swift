import Glibc

/// The memory limit systemd's `MemoryMax=` sets on the service's control group, read from the process's own
/// cgroup and its ancestors (the smallest limit on the path applies): cgroup v2's `memory.max`, or on a host whose
/// memory controller is on the legacy hierarchy, v1's `memory.limit_in_bytes` under `memory/`.
///
/// ```swift
/// if let limit = CgroupMemoryLimit().bytes() { … }   // nil: no limit, or no cgroup v2 to read it from
/// ```
public struct CgroupMemoryLimit: Sendable {
    /// Where `/proc/self/cgroup` is read.
    public var procSelfCgroup: String
    /// Where the cgroup v2 hierarchy is mounted.
    public var cgroupRoot: String

    /// The limit of this process's cgroup, read from the given places (the real ones by default; tests pass a
    /// directory of their own).
    public init(procSelfCgroup: String = "/proc/self/cgroup", cgroupRoot: String = "/sys/fs/cgroup") {
        self.procSelfCgroup = procSelfCgroup
        self.cgroupRoot = cgroupRoot
    }

    /// The smallest limit from the process's cgroup up to the root, in bytes; `nil` when there is none on the
    /// path (`max`, or v1's "unlimited" page-rounded maximum) or no cgroup entry to read.
    public func bytes() -> UInt64? {
        guard let membership = Self.contents(of: procSelfCgroup) else { return nil }
        let lines = membership.split(separator: "\n").map {
            $0.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        }
        if let v1 = lines.first(where: { $0.count == 3 && $0[1].split(separator: ",").contains("memory") }) {
            return smallest(under: cgroupRoot + "/memory", path: String(v1[2]), file: "memory.limit_in_bytes")
        }
        if let v2 = lines.first(where: { $0.count == 3 && $0[0] == "0" && $0[1].isEmpty }) {
            return smallest(under: cgroupRoot, path: String(v2[2]), file: "memory.max")
        }
        return nil
    }

    /// The smallest limit in `file` from `root/path` up to `root`.
    private func smallest(under root: String, path: String, file: String) -> UInt64? {
        var components = path.split(separator: "/").map(String.init)
        var smallest: UInt64?
        while true {
            let directory = ([root] + components).joined(separator: "/")
            if let limit = Self.limit(in: directory + "/" + file) {
                smallest = min(smallest ?? limit, limit)
            }
            guard !components.isEmpty else { break }
            components.removeLast()
        }
        return smallest
    }

    /// The number in `file`; `nil` for `max`, v1's "unlimited" (at least 2^62, the page-rounded maximum), a
    /// missing file or anything else.
    static func limit(in file: String) -> UInt64? {
        guard let text = contents(of: file)?.utf8, let start = text.firstIndex(where: { !isSpace($0) }),
            let end = text.lastIndex(where: { !isSpace($0) }),
            let value = UInt64(String(Substring(text[start...end]))), value < 1 << 62
        else { return nil }
        return value
    }

    /// Whether `byte` is ASCII white space (what the kernel ends a value with).
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// The text of a small kernel file, read with plain system calls (``readToEnd(_:)``): a daemon reads these on its
    /// start, before its load, where Foundation's first file reads (URLs, bridged strings) cost it 0.4 ms.
    static func contents(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return (try? readToEnd(descriptor)).map { String(decoding: $0, as: UTF8.self) }
    }
}
