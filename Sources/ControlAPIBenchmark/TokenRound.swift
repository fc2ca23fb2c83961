import Foundation
import WorkspaceClient

/// One round of the bearer token phase: the no-op route judged by peer credentials alone, and the same route
/// with a read token, measured back to back.
struct TokenRound {
    /// `GET /v1/status` without a token.
    var peer: Measurement
    /// `GET /v1/status` with `Authorization: Bearer`.
    var bearer: Measurement
    /// The daemon's CPU seconds per request without a token.
    var peerCPUPerRequest: Double
    /// The daemon's CPU seconds per request with the token.
    var bearerCPUPerRequest: Double

    /// What the token check adds, in daemon CPU seconds per request.
    var difference: Double { bearerCPUPerRequest - peerCPUPerRequest }

    /// The line this round prints.
    var summary: String {
        String(
            format: "%+.1f µs daemon CPU per request (peer credentials %.1f µs, bearer %.1f µs)", difference * 1e6,
            peerCPUPerRequest * 1e6, bearerCPUPerRequest * 1e6)
    }

    /// Creates a read token through the API (the benchmark runs as root, so its peer may manage tokens), then
    /// alternates `options.rounds` times a phase of no-op requests with peer credentials only and one with the
    /// token (the order flips every round, so a drift in the machine's load does not favour either), and prints
    /// each round and the median of the rounds' differences. Only a daemon the benchmark started can be measured:
    /// with `--socket` it says so and creates no token.
    static func run(options: BenchmarkOptions, daemon: SpawnedDaemon?, client: WorkspaceClient) async throws {
        guard let daemon else {
            print(
                "bearer token check: not measured (the daemon's CPU time is only read from a daemon the benchmark "
                    + "starts; run without --socket)")
            return
        }
        let created = try await client.createToken(name: "control API benchmark", scope: "read")
        let bearerClient = WorkspaceClient(socketPath: client.socketPath, timeout: client.timeout, token: created.token)
        print("bearer token phase: read token \(created.info.id), \(options.rounds) rounds")
        _ = try await measure("bearer warm-up", clients: options.clients, requests: options.clients * 20) { _, _ in
            _ = try await bearerClient.status()
        }
        var rounds: [TokenRound] = []
        for round in 1...options.rounds {
            let bearerFirst = round.isMultiple(of: 2)
            var peer: (Measurement, Double)?
            var bearer: (Measurement, Double)?
            for withToken in bearerFirst ? [true, false] : [false, true] {
                let phaseClient = withToken ? bearerClient : client
                let name = "round \(round) GET /v1/status " + (withToken ? "bearer token" : "peer credentials")
                guard let before = daemon.cpuTime() else { throw BenchmarkError("cannot read the daemon's CPU time") }
                let measured = try await measure(name, clients: options.clients, requests: options.requests) { _, _ in
                    _ = try await phaseClient.status()
                }
                guard let after = daemon.cpuTime() else { throw BenchmarkError("cannot read the daemon's CPU time") }
                let perRequest = (after - before) / Double(measured.count)
                if withToken { bearer = (measured, perRequest) } else { peer = (measured, perRequest) }
            }
            guard let peer, let bearer else { continue }
            let result = TokenRound(
                peer: peer.0, bearer: bearer.0, peerCPUPerRequest: peer.1, bearerCPUPerRequest: bearer.1)
            print("round \(round) bearer token check: " + result.summary)
            rounds.append(result)
        }
        summarize(rounds)
    }

    /// Prints the differences by round and their median, with the medians of both sides.
    static func summarize(_ rounds: [TokenRound]) {
        print(
            "bearer token differences by round (µs): "
                + rounds.map { String(format: "%.1f", $0.difference * 1e6) }.joined(separator: ", "))
        let line = String(
            format: "bearer token check: %+.1f µs daemon CPU per request (peer credentials %.1f µs, bearer %.1f µs)",
            median(rounds.map(\.difference)) * 1e6, median(rounds.map(\.peerCPUPerRequest)) * 1e6,
            median(rounds.map(\.bearerCPUPerRequest)) * 1e6)
        print(line + " — goal ≤ 20 µs")
    }
}
