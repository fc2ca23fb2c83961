import Foundation

/// One no-op phase and the change phase measured right after it.
struct Round {
    /// The no-op route's phase.
    var noop: Measurement
    /// The change phase.
    var changes: Measurement
    /// The daemon's CPU seconds per no-op request, when the benchmark started the daemon.
    var noopCPUPerRequest: Double?
    /// The daemon's CPU seconds per change, when the benchmark started the daemon.
    var changeCPUPerRequest: Double?

    /// This process's (the clients') CPU seconds per no-op request.
    var noopClientCPUPerRequest = 0.0
    /// This process's (the clients') CPU seconds per change.
    var changeClientCPUPerRequest = 0.0

    /// Changes per second ÷ no-op requests per second.
    var ratio: Double { changes.perSecond / noop.perSecond }

    /// Prints the medians over the rounds: the ratio (the figure the goal is about), the rates, latencies and CPU.
    static func summarize(_ rounds: [Round]) {
        let ratios = rounds.map(\.ratio)
        print(
            "ratios by round: " + ratios.map { String(format: "%.2f", $0) }.joined(separator: ", "))
        print(
            String(
                format: "median no-op: %.0f/s, p50 %.2f ms, p99 %.2f ms", median(rounds.map(\.noop.perSecond)),
                median(rounds.map(\.noop.p50)), median(rounds.map(\.noop.p99))))
        print(
            String(
                format: "median changes: %.0f/s, p50 %.2f ms, p99 %.2f ms", median(rounds.map(\.changes.perSecond)),
                median(rounds.map(\.changes.p50)), median(rounds.map(\.changes.p99))))
        let noopCPU = rounds.compactMap(\.noopCPUPerRequest)
        let changeCPU = rounds.compactMap(\.changeCPUPerRequest)
        if !noopCPU.isEmpty, !changeCPU.isEmpty {
            print(
                String(
                    format: "daemon CPU per request (median): no-op %.1f µs, change %.1f µs (%.2f×)",
                    median(noopCPU) * 1e6, median(changeCPU) * 1e6, median(changeCPU) / median(noopCPU)))
        }
        print(
            String(
                format: "client CPU per request (median): no-op %.1f µs, change %.1f µs",
                median(rounds.map(\.noopClientCPUPerRequest)) * 1e6,
                median(rounds.map(\.changeClientCPUPerRequest)) * 1e6))
        print(String(format: "ratio changes/s ÷ no-op/s (median of rounds): %.2f (goal ≥ 0.75)", median(ratios)))
    }
}

/// The middle value (the mean of the two middle ones for an even count).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
}

/// This process's user + system CPU seconds so far.
func ownCPUTime() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    return user + system
}
