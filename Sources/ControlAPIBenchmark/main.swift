import Foundation
import WorkspaceClient

// ControlAPIBenchmark: changes per second through the control socket with concurrent clients, divided by the same
// server's no-op route (GET /v1/status) measured in the same run, with p50/p99 latencies. Printed, not asserted.
//
//   swift run -c release ControlAPIBenchmark [--socket PATH] [--clients 16] [--requests 4000] [--rounds 5]
//
// The two phases alternate for several rounds and the ratio is the median of the rounds' ratios: on a shared
// machine the load from elsewhere changes over seconds, and a ratio of two phases measured back to back is far
// steadier than one of two long phases. Without --socket it starts the workspaced built next to it on a temporary
// state directory (the shipped save timings: 500 ms debounce, 5 s maximum delay), also reports the daemon's own CPU
// time per request of each kind, and stops it with SIGTERM afterwards.
//
// Then the bearer token phase (spawned daemon only: it is about the daemon's CPU time): it creates a read token
// through the API and alternates, for as many rounds, no-op requests judged by peer credentials alone with the same
// requests sent with `Authorization: Bearer`, and prints what the token check adds to the daemon's CPU time per
// request, the median of the rounds' differences (goal ≤ 20 µs).

let options = try BenchmarkOptions(CommandLine.arguments.dropFirst())
let daemon = options.socketPath == nil ? try SpawnedDaemon() : nil
defer { daemon?.stop() }
let socketPath = options.socketPath ?? daemon!.socketPath
let client = WorkspaceClient(socketPath: socketPath, timeout: .seconds(60))
try await waitUntilReachable(client)

print(
    "control API benchmark: \(options.clients) clients, \(options.requests) requests per phase, "
        + "\(options.rounds) rounds, socket \(socketPath)")
_ = try await measure("warm-up", clients: options.clients, requests: options.clients * 20) { _, _ in
    _ = try await client.status()
}
var rounds: [Round] = []
for round in 1...options.rounds {
    let noopCPU = daemon?.cpuTime()
    let noopClientCPU = ownCPUTime()
    let noop = try await measure(
        "round \(round) no-op GET /v1/status", clients: options.clients, requests: options.requests
    ) { _, _ in
        _ = try await client.status()
    }
    let changeCPU = daemon?.cpuTime()
    let changeClientCPU = ownCPUTime()
    let changes = try await measure(
        "round \(round) changes (add favorite / create project)", clients: options.clients, requests: options.requests
    ) { worker, index in
        let name = "bench-\(round)-\(worker)-\(index)"
        if index.isMultiple(of: 2) {
            _ = try await client.addFavorite(name: name, path: "/bench/\(round)/\(worker)/\(index)")
        } else {
            _ = try await client.createProject(name: name, layout: .single)
        }
    }
    let endCPU = daemon?.cpuTime()
    var result = Round(noop: noop, changes: changes)
    result.noopClientCPUPerRequest = (changeClientCPU - noopClientCPU) / Double(noop.count)
    result.changeClientCPUPerRequest = (ownCPUTime() - changeClientCPU) / Double(changes.count)
    if let noopCPU, let changeCPU, let endCPU {
        result.noopCPUPerRequest = (changeCPU - noopCPU) / Double(noop.count)
        result.changeCPUPerRequest = (endCPU - changeCPU) / Double(changes.count)
    }
    print(String(format: "round %d ratio: %.2f", round, result.ratio))
    rounds.append(result)
}
let flushStart = ContinuousClock.now
_ = try await client.flush()
print(String(format: "flush after the run: %.1f ms", (ContinuousClock.now - flushStart).milliseconds))
Round.summarize(rounds)
try await TokenRound.run(options: options, daemon: daemon, client: client)
