// Prints load-time ratios of StateStore against a plain JSONDecoder decode measured in the same run.
// Usage: StateStoreBenchmarks [records] [rounds]   (defaults: 50000 records ≈ 10 MB, 7 rounds)
import Foundation
import StateStore
import StateStoreSample

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let records = arguments.first ?? 50_000
let rounds = arguments.dropFirst().first ?? 7
let benchmark = try LoadBenchmark(records: records)
benchmark.run(rounds: rounds)
