import Foundation

/// What `make bench` keeps in docs/benchmarks/results.json: where and when the figures were measured, and every
/// figure.
struct Results: Codable {
    /// The machine: CPU model, cores, kernel.
    struct Machine: Codable {
        var cpu: String
        var cores: Int
        var kernel: String
    }

    var machine: Machine
    var date: String
    var commit: String
    var rounds: Int
    var ready: [ReadyBenchmark.Row]

    /// This machine, read from /proc.
    static func thisMachine() -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
        let kernel = (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)) ?? ""
        return Machine(
            cpu: model ?? "unknown", cores: ProcessInfo.processInfo.activeProcessorCount,
            kernel: kernel.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
