import Foundation
import StateStore
import StateStoreSample

/// One operation run once, inside `measuredOperation`, so `valgrind --tool=callgrind
/// --toggle-collect='*measuredOperation*'` counts its instructions alone: a repeatable measure on a noisy machine.
/// `Scripts/count-load-instructions.sh` runs the three operations and prints their ratios.
enum InstructionCount {
    static func run(operation: String, records: Int) throws {
        let benchmark = try LoadBenchmark(records: records)
        let codec = StateCodec(schema: benchmark.schema)
        let work: () throws -> Void
        switch operation {
        case "synthesized": work = { _ = try JSONDecoder().decode(PlainNotebook.self, from: benchmark.currentBytes) }
        case "plain": work = { _ = try JSONDecoder().decode(Notebook.self, from: benchmark.currentBytes) }
        case "load-current": work = { _ = try codec.decode(benchmark.currentBytes) }
        case "load-oldest": work = { _ = try codec.decode(benchmark.oldestBytes) }
        default: throw CocoaError(.featureUnsupported)
        }
        try measuredOperation(work)
    }

    @inline(never)
    static func measuredOperation(_ work: () throws -> Void) throws {
        try work()
    }
}
