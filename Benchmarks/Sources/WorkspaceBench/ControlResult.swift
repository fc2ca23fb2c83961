/// The control API benchmark's figures, as the `control` section of docs/benchmarks/results.json holds them (a
/// chart script reads these keys): medians of the rounds, times in seconds.
struct ControlResult: Codable {
    var megabytes: Int
    var clients: Int
    var changesPerSecond: Double
    var noopPerSecond: Double
    /// The median of the rounds' changes/s ÷ no-op/s.
    var ratio: Double
    var goal = 0.75
    var changeP50Seconds: Double
    var changeP99Seconds: Double
    var noopP50Seconds: Double
    var noopP99Seconds: Double
    /// The daemon's CPU time per change, the saves it caused included.
    var changeCPUSecondsPerRequest: Double
    var noopCPUSecondsPerRequest: Double
    /// The bearer token phase: the median of the rounds' differences, daemon CPU per no-op request with a read
    /// token − with peer credentials alone, and the medians of both sides.
    var tokenCheckCPUSecondsPerRequest: Double
    var tokenCheckGoal = 0.000_020
    var peerCPUSecondsPerRequest: Double
    var bearerCPUSecondsPerRequest: Double

    /// The medians of `rounds` and `tokens`.
    init(megabytes: Int, clients: Int, rounds: [ControlRound], tokens: [TokenRound]) {
        self.megabytes = megabytes
        self.clients = clients
        changesPerSecond = median(rounds.map(\.changes.perSecond))
        noopPerSecond = median(rounds.map(\.noop.perSecond))
        ratio = median(rounds.map(\.ratio))
        changeP50Seconds = median(rounds.map(\.changes.p50))
        changeP99Seconds = median(rounds.map(\.changes.p99))
        noopP50Seconds = median(rounds.map(\.noop.p50))
        noopP99Seconds = median(rounds.map(\.noop.p99))
        changeCPUSecondsPerRequest = median(rounds.map(\.changeCPUPerRequest))
        noopCPUSecondsPerRequest = median(rounds.map(\.noopCPUPerRequest))
        tokenCheckCPUSecondsPerRequest = median(tokens.map(\.difference))
        peerCPUSecondsPerRequest = median(tokens.map(\.peerCPUPerRequest))
        bearerCPUSecondsPerRequest = median(tokens.map(\.bearerCPUPerRequest))
    }

    /// The summary lines.
    var summary: String {
        [
            String(
                format: "median no-op: %.0f/s, p50 %.2f ms, p99 %.2f ms", noopPerSecond, noopP50Seconds * 1000,
                noopP99Seconds * 1000),
            String(
                format: "median changes: %.0f/s, p50 %.2f ms, p99 %.2f ms", changesPerSecond, changeP50Seconds * 1000,
                changeP99Seconds * 1000),
            String(
                format: "daemon CPU per request (median): no-op %.1f µs, change %.1f µs",
                noopCPUSecondsPerRequest * 1e6,
                changeCPUSecondsPerRequest * 1e6),
            String(format: "ratio changes/s ÷ no-op/s (median of rounds): %.2f (goal ≥ %.2f)", ratio, goal),
            String(
                format: "bearer token check: %+.1f µs daemon CPU per request (peer credentials %.1f µs, bearer %.1f µs)"
                    + " — goal ≤ 20 µs", tokenCheckCPUSecondsPerRequest * 1e6, peerCPUSecondsPerRequest * 1e6,
                bearerCPUSecondsPerRequest * 1e6),
        ].joined(separator: "\n")
    }
}
