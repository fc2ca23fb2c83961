// Prints StateStore's load timings on the sample model and their ratios against baselines measured in the same run.
// The persistence figures (save, owner blocked, writes under a stream, SIGTERM) and the control API's are measured on
// the real workspace model by Benchmarks/ (`WorkspaceBench persistence` and `WorkspaceBench control`).
// Usage:
//   StateStoreBenchmarks [records] [rounds] [--json PATH --commit ID]
//       load: StateStore loads against a plain JSONDecoder decode (defaults: 50000 records ≈ 10 MB, 7 rounds);
//       with --json, the figures go to the `library` section of that results file
//   StateStoreBenchmarks count plain|load-current|load-oldest|synthesized [records]
//       one operation, for callgrind instruction counts (Scripts/count-load-instructions.sh)
import BenchResults
import Foundation
import StateStore
import StateStoreSample

var words = Array(CommandLine.arguments.dropFirst())
/// Removes `--name VALUE` from `words` and returns the value.
func takeOption(_ name: String, from words: inout [String]) -> String? {
    guard let index = words.firstIndex(of: "--" + name), index + 1 < words.count else { return nil }
    let value = words[index + 1]
    words.removeSubrange(index...(index + 1))
    return value
}
let resultsPath = takeOption("json", from: &words)
let commit = takeOption("commit", from: &words) ?? "unknown"
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
default:
    let benchmark = try LoadBenchmark(records: records)
    let figures = benchmark.run(rounds: rounds)
    if let resultsPath {
        try Results.update(path: resultsPath, section: "library", value: figures, commit: commit, rounds: rounds)
    }
}
