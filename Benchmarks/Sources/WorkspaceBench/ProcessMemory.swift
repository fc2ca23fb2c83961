import Foundation

/// Resident memory of a process, from `/proc/PID/status`, in bytes.
struct ProcessMemory: Sendable, Codable {
    /// The peak resident set size so far (`VmHWM`).
    var peak: Int
    /// The resident set size now (`VmRSS`).
    var resident: Int
    /// The anonymous part of ``resident`` (`RssAnon`): the heap, stacks and written data, what only this process
    /// holds and what the allocator keeps. `nil` when the kernel does not report it.
    var anonymous: Int?
    /// The file-backed part of ``resident`` (`RssFile`): the pages of the binary and its libraries, clean, shared
    /// by every process that maps them and dropped under memory pressure. `nil` when the kernel does not report it.
    var fileBacked: Int?

    /// The memory of `pid` (`self` for this process), or `nil` when it cannot be read.
    static func of(_ pid: String = "self") -> ProcessMemory? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func bytes(_ field: String) -> Int? {
            status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
                .flatMap { Int($0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") }
                .map { $0 * 1024 }
        }
        guard let peak = bytes("VmHWM"), let resident = bytes("VmRSS") else { return nil }
        return ProcessMemory(
            peak: peak, resident: resident, anonymous: bytes("RssAnon"), fileBacked: bytes("RssFile"))
    }
}
