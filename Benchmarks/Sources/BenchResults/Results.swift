import Foundation

/// What `make bench` keeps in docs/benchmarks/results.json: where and when the figures were measured, and every
/// figure, a section per benchmark (`ready`, `persistence`, `control`, `peer`, `history`, `replay`, `replica`,
/// `metrics`, `library`). Each benchmark replaces its own section and keeps the others, so they run one after
/// another into one file; `make bench` starts from an empty file, so that every section comes from the same run.
public enum Results {
    /// The machine: CPU model, cores, kernel.
    public struct Machine: Codable {
        /// The processor's model name.
        public var cpu: String
        /// Processors this process may use.
        public var cores: Int
        /// The kernel's release.
        public var kernel: String
    }

    /// Writes `value` as section `section` of the results file at `path` (created when missing), with this
    /// machine, the date and `commit`; the other sections stay as they are.
    public static func update(path: String, section: String, value: some Encodable, commit: String, rounds: Int) throws
    {
        var document: [String: Any] = [:]
        if let existing = FileManager.default.contents(atPath: path), !existing.isEmpty {
            guard let object = try JSONSerialization.jsonObject(with: existing) as? [String: Any] else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path])
            }
            document = object
        }
        document[section] = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value))
        document["machine"] = try JSONSerialization.jsonObject(with: JSONEncoder().encode(thisMachine()))
        document["date"] = ISO8601DateFormatter().string(from: Date())
        document["commit"] = commit
        var roundsBySection = document["rounds"] as? [String: Any] ?? [:]
        roundsBySection[section] = rounds
        document["rounds"] = roundsBySection
        let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// This machine, read from /proc.
    public static func thisMachine() -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
        let kernel = (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)) ?? ""
        return Machine(
            cpu: model ?? "unknown", cores: ProcessInfo.processInfo.activeProcessorCount,
            kernel: kernel.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
