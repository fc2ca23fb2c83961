import Foundation
import WorkspaceClient

// ControlAPIBenchmark: changes per second through the control socket with concurrent clients, divided by the same
// server's no-op route (GET /v1/status) measured in the same run, with p50/p99 latencies. Printed, not asserted.
//
//   swift run -c release ControlAPIBenchmark [--socket PATH] [--clients 16] [--requests 4000]
//
// Without --socket it starts the workspaced built next to it on a temporary state directory (the shipped save
// timings: 500 ms debounce, 5 s maximum delay) and stops it with SIGTERM afterwards.

let options = try BenchmarkOptions(CommandLine.arguments.dropFirst())
let daemon = options.socketPath == nil ? try SpawnedDaemon() : nil
defer { daemon?.stop() }
let socketPath = options.socketPath ?? daemon!.socketPath
let client = WorkspaceClient(socketPath: socketPath, timeout: .seconds(60))
try await waitUntilReachable(client)

print("control API benchmark: \(options.clients) clients, \(options.requests) requests per phase, socket \(socketPath)")
_ = try await measure("warm-up", clients: options.clients, requests: options.clients * 20) { _, _ in
    _ = try await client.status()
}
let noop = try await measure("no-op GET /v1/status", clients: options.clients, requests: options.requests) { _, _ in
    _ = try await client.status()
}
let changes = try await measure(
    "changes (add favorite / create project)", clients: options.clients, requests: options.requests
) { worker, index in
    if index.isMultiple(of: 2) {
        _ = try await client.addFavorite(name: "bench-\(worker)-\(index)", path: "/bench/\(worker)/\(index)")
    } else {
        _ = try await client.createProject(name: "bench-\(worker)-\(index)", layout: .single)
    }
}
let flushStart = ContinuousClock.now
_ = try await client.flush()
print(String(format: "flush after the run: %.1f ms", (ContinuousClock.now - flushStart).milliseconds))
print(String(format: "ratio changes/s ÷ no-op/s: %.2f (goal ≥ 0.75)", changes.perSecond / noop.perSecond))
