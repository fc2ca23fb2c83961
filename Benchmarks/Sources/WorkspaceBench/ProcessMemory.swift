import Foundation

/// Resident memory of a process, from `/proc/PID/status`, in bytes.
struct ProcessMemory: Sendable, Codable {
    /// The peak resident set size so far (`VmHWM`).
    var peak: Int
    /// The resident set size now (`VmRSS`).
    var resident: Int

    /// The memory of `pid` (`self` for this process), or `nil` when it cannot be read.
    static func of(_ pid: String = "self") -> ProcessMemory? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func kilobytes(_ field: String) -> Int? {
            status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
                .flatMap { Int($0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") }
        }
        guard let peak = kilobytes("VmHWM"), let resident = kilobytes("VmRSS") else { return nil }
        return ProcessMemory(peak: peak * 1024, resident: resident * 1024)
    }
}
