// Prints StateStore timings and their ratios against baselines measured in the same run.
// Usage:
//   StateStoreBenchmarks [records] [rounds]
//       load: StateStore loads against a plain JSONDecoder decode (defaults: 50000 records ≈ 10 MB, 7 rounds)
//   StateStoreBenchmarks persistence [records] [rounds] [stream seconds]
//       the persistence engine: owner blocking, save cost, writes under a 10,000 changes/s stream, SIGTERM → exit
//       (defaults: 50000 records, 7 rounds, 10 s; needs StateStoreCrashTester built next to this binary)
//   StateStoreBenchmarks count plain|load-current|load-oldest|synthesized [records]
//       one operation, for callgrind instruction counts (Scripts/count-load-instructions.sh)
import Foundation
import StateStore
import StateStoreSample

var words = Array(CommandLine.arguments.dropFirst())
var mode = "load"
if let first = words.first, Int(first) == nil {
    mode = first
    words.removeFirst()
}
let arguments = words.compactMap { Int($0) }
let records = arguments.first ?? 50_000
let rounds = arguments.dropFirst().first ?? 7
switch mode {
case "count":
    let operation = words.first ?? "plain"
    try InstructionCount.run(operation: operation, records: words.dropFirst().compactMap { Int($0) }.first ?? 5_000)
case "persistence":
    let streamSeconds = arguments.dropFirst(2).first ?? 10
    try PersistenceBenchmark(records: records, rounds: rounds, streamSeconds: streamSeconds).run()
default:
    let benchmark = try LoadBenchmark(records: records)
    benchmark.run(rounds: rounds)
}
