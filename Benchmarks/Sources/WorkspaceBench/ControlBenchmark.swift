import Foundation
import WorkspaceClient

/// The control API with concurrent clients on the release daemon holding a generated workspace of a given size
/// (issue 16; docs/benchmarks.md): changes per second ÷ the no-op route's (`GET /v1/status`) measured in the same
/// rounds, p50 and p99 latencies, the daemon's CPU time per request of each kind; then the bearer token phase.
/// The daemon saves with its default timing (debounce 500 ms, maximum delay 5 s); a change phase is shorter than the
/// maximum delay, so each round flushes after it (outside both phases' wall time) and the save's CPU time counts
/// for the changes rather than for the next no-op phase.
struct ControlBenchmark {
    let daemon: String
    let megabytes: Int
    let clients: Int
    let requests: Int
    let rounds: Int

    /// Starts the daemon, measures, stops it; prints every phase and the summary.
    func run() async throws -> ControlResult {
        let directory = FileManager.default.temporaryDirectory.path + "/workspace-control-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = try WorkspaceGenerator.make(bytes: megabytes * 1_000_000).v4
        let running = try DaemonProcess(
            daemon: daemon, directory: directory, file: file,
            configuration: #"{"save": {"debounceMilliseconds": 500, "maximumDelayMilliseconds": 5000}}"#)
        let client = WorkspaceClient(socketPath: running.socketPath, timeout: .seconds(60))
        print(
            "control API benchmark: \(megabytes) MB workspace (\(file.count) bytes), \(clients) clients, "
                + "\(requests) requests per phase, \(rounds) rounds")
        _ = try await PhaseMeasurement.measure("warm-up", clients: clients, requests: clients * 20) { _, _ in
            _ = try await client.status()
        }
        var results: [ControlRound] = []
        for number in 1...max(1, rounds) {
            results.append(
                try await ControlRound.run(
                    number, daemon: running, client: client, clients: clients, requests: requests))
        }
        print("ratios by round: " + results.map { String(format: "%.2f", $0.ratio) }.joined(separator: ", "))
        let tokens = try await TokenRound.run(
            daemon: running, client: client, clients: clients, requests: requests, rounds: rounds)
        _ = try running.terminate()
        let result = ControlResult(megabytes: megabytes, clients: clients, rounds: results, tokens: tokens)
        print(result.summary)
        return result
    }
}
