import Foundation

/// The plain decode of a file (``Plain``), in a process of its own so that its peak memory is the decode's alone.
enum Baseline {
    /// What the plain decode took.
    struct Result: Codable {
        /// The median of the decodes, in seconds (the file already in memory).
        var decodeSeconds: Double
        /// The process's peak resident memory after reading the file and decoding it once.
        var peak: Int
    }

    /// Decodes the file at `path` `rounds` times in this process.
    static func runHere(path: String, rounds: Int) throws -> Result {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var times: [Double] = []
        var peak = 0
        for round in 0..<max(1, rounds) {
            let started = ContinuousClock.now
            _ = try Plain.decode(data)
            times.append((ContinuousClock.now - started).seconds)
            if round == 0 { peak = ProcessMemory.of()?.peak ?? 0 }
        }
        return Result(decodeSeconds: median(times), peak: peak)
    }

    /// Runs ``runHere(path:rounds:)`` in a child process (`WorkspaceBench baseline PATH ROUNDS`).
    static func run(path: String, rounds: Int) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["baseline", path, String(rounds)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("the baseline decode of \(path) failed") }
        return try JSONDecoder().decode(Result.self, from: bytes)
    }
}

/// The median of `values` (0 for none).
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
