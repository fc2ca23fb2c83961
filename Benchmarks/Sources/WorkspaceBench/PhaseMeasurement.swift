import Foundation

/// Throughput and latency of one phase of the control API benchmark: requests spread over concurrent clients.
struct PhaseMeasurement {
    /// Completed requests.
    var count: Int
    /// Completed requests per second over the whole phase.
    var perSecond: Double
    /// Median latency, in seconds.
    var p50: Double
    /// 99th percentile latency, in seconds.
    var p99: Double

    /// Runs `requests` calls of `body(worker, index)` spread over `clients` concurrent workers; prints and returns
    /// the throughput and latency percentiles.
    static func measure(
        _ name: String, clients: Int, requests: Int,
        _ body: @escaping @Sendable (_ worker: Int, _ index: Int) async throws -> Void
    ) async throws -> PhaseMeasurement {
        let perClient = max(1, requests / clients)
        let start = ContinuousClock.now
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for worker in 0..<clients {
                group.addTask {
                    var samples: [Double] = []
                    samples.reserveCapacity(perClient)
                    for index in 0..<perClient {
                        let began = ContinuousClock.now
                        try await body(worker, index)
                        samples.append((ContinuousClock.now - began).seconds)
                    }
                    return samples
                }
            }
            var all: [Double] = []
            for try await samples in group { all += samples }
            return all.sorted()
        }
        let elapsed = (ContinuousClock.now - start).seconds
        let result = PhaseMeasurement(
            count: latencies.count, perSecond: Double(latencies.count) / elapsed, p50: percentile(latencies, 0.50),
            p99: percentile(latencies, 0.99))
        print(
            String(
                format: "%@: %d requests in %.2f s = %.0f/s, p50 %.2f ms, p99 %.2f ms", name, latencies.count, elapsed,
                result.perSecond, result.p50 * 1000, result.p99 * 1000))
        return result
    }

    /// The value below which `fraction` of the sorted samples fall.
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
        return sorted[max(0, index)]
    }
}
