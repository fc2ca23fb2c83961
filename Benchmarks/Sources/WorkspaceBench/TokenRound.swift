import Foundation
import WorkspaceClient

/// One round of the bearer token phase of the control API benchmark: the no-op route judged by peer credentials
/// alone and the same route with a read token, back to back, each with the daemon's CPU time per request.
struct TokenRound {
    /// The daemon's CPU seconds per `GET /v1/status` without a token.
    var peerCPUPerRequest: Double
    /// The daemon's CPU seconds per `GET /v1/status` with `Authorization: Bearer`.
    var bearerCPUPerRequest: Double

    /// What the token check adds, in daemon CPU seconds per request.
    var difference: Double { bearerCPUPerRequest - peerCPUPerRequest }

    /// Creates a read token through the API (the benchmark runs as root, so its peer may manage tokens), then
    /// alternates `rounds` times a phase of no-op requests with peer credentials only and one with the token (the
    /// order flips every round, so that a drift in the machine's load favours neither) and prints each round.
    static func run(
        daemon: DaemonProcess, client: WorkspaceClient, clients: Int, requests: Int, rounds: Int
    ) async throws -> [TokenRound] {
        let created = try await client.createToken(name: "control API benchmark", scope: "read")
        let bearerClient = WorkspaceClient(socketPath: client.socketPath, timeout: client.timeout, token: created.token)
        print("bearer token phase: read token \(created.info.id), \(rounds) rounds")
        _ = try await PhaseMeasurement.measure("bearer warm-up", clients: clients, requests: clients * 20) { _, _ in
            _ = try await bearerClient.status()
        }
        var results: [TokenRound] = []
        for round in 1...max(1, rounds) {
            var peer = 0.0
            var bearer = 0.0
            for withToken in round.isMultiple(of: 2) ? [true, false] : [false, true] {
                let phaseClient = withToken ? bearerClient : client
                let name = "round \(round) GET /v1/status " + (withToken ? "bearer token" : "peer credentials")
                let before = try daemon.cpuSeconds()
                let measured = try await PhaseMeasurement.measure(name, clients: clients, requests: requests) { _, _ in
                    _ = try await phaseClient.status()
                }
                let perRequest = (try daemon.cpuSeconds() - before) / Double(measured.count)
                if withToken { bearer = perRequest } else { peer = perRequest }
            }
            let result = TokenRound(peerCPUPerRequest: peer, bearerCPUPerRequest: bearer)
            print(
                String(
                    format:
                        "round %d bearer token check: %+.1f µs daemon CPU per request (peer %.1f µs, bearer %.1f µs)",
                    round, result.difference * 1e6, peer * 1e6, bearer * 1e6))
            results.append(result)
        }
        return results
    }
}
