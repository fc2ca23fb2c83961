import Dispatch
import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Synchronization

/// Measures the persistence engine on one generated state: how long a save blocks the owner, what a save costs
/// against a plain encode + durable write measured in the same run, how many writes a constant stream of
/// changes causes, and how long a SIGTERM takes to turn into an exit with a dirty and a clean state.
struct PersistenceBenchmark {
    let records: Int
    let rounds: Int
    let streamSeconds: Int
    let directory: String

    init(records: Int, rounds: Int, streamSeconds: Int) throws {
        self.records = records
        self.rounds = rounds
        self.streamSeconds = streamSeconds
        directory = FileManager.default.temporaryDirectory.path + "/statestore-persistence-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func run() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let schema = try NotebookSchema.make()
        let model = try StateCodec(schema: schema).decode(try LoadBenchmark.generateVersion1(records: records)).model
        let path = directory + "/state.json"
        let seed = StateFile(path: path, schema: schema)
        _ = try seed.load()
        try seed.save(model)
        let bytes = try seed.encode(model)
        seed.unlock()
        print("state: \(model.notes.count) notes, \(bytes.count) bytes; \(rounds) rounds")

        let baseline = try Baseline(path: path, model: model)
        try measureSaves(path: path, baseline: baseline)
        measureCopyOnWrite(model.notes)
        try measureStream(path: path)
        try measureShutdown(path: path, baseline: baseline)
    }

    /// Saves driven by a manual clock, so the instant the save starts is known: the owner's share of each save
    /// (the timer callback takes the snapshot under the lock and queues the save), the first change made while
    /// the save holds the snapshot (copy-on-write of the touched collection), and the save from the timer to
    /// the durable acknowledgement.
    private func measureSaves(path: String, baseline: Baseline) throws {
        let file = StateFile(path: path, schema: try NotebookSchema.make())
        let scheduler = ManualPersistenceScheduler()
        let state = PersistentState(file: file, loaded: try file.load(), scheduler: scheduler)
        defer { file.unlock() }
        var snapshotTimes: [Double] = []
        var lockTimes: [Double] = []
        var firstChangeTimes: [Double] = []
        var ordinaryChangeTimes: [Double] = []
        var saveTimes: [Double] = []
        var engineSaveTimes: [Double] = []
        var baselineTimes: [Double] = []
        for round in 0..<rounds {
            baselineTimes.append(try baseline.measure())
            try state.apply { touch(&$0, round) }
            ordinaryChangeTimes.append(try seconds { try state.apply { touch(&$0, round + 1) } })
            let start = DispatchTime.now().uptimeNanoseconds
            scheduler.advance(by: state.configuration.debounce)
            snapshotTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            let revision = state.status.revision
            if let held = state.status.lastSnapshotDuration { lockTimes.append(held.seconds) }
            firstChangeTimes.append(try seconds { try state.apply { touch(&$0, round + 2) } })
            try state.waitUntilDurableBlocking(revision)
            saveTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            if let duration = state.status.lastSaveDuration { engineSaveTimes.append(duration.seconds) }
            try state.flushSynchronously()  // the change made during the save, so the next round starts clean
        }
        let baseline = median(baselineTimes)
        report("baseline: encode + durable replace (interleaved)", baseline)
        report("owner blocked per save: lock held for the snapshot", median(lockTimes), goalMs: 1)
        report("  worst of \(rounds)", lockTimes.max() ?? 0)
        report("timer callback wall time (snapshot, queue the save)", median(snapshotTimes))
        report("  worst of \(rounds) (a loaded machine preempts it)", snapshotTimes.max() ?? 0)
        report("an ordinary change (no save holding the snapshot)", median(ordinaryChangeTimes))
        report("first change during a save (copy-on-write of notes)", median(firstChangeTimes))
        report("save: timer → durable acknowledgement", median(saveTimes), against: baseline, goal: 1.10)
        let paired = median(zip(saveTimes, baselineTimes).map { $0 / $1 })
        print(String(format: "  median of per-round ratios (save ÷ the baseline run just before it) %.3f", paired))
        report("save as the engine reports it (snapshot → dir fsync)", median(engineSaveTimes), against: baseline)
    }

    /// The copy-on-write a change pays while a save holds a snapshot, for the notes kept in a plain `Array` (as
    /// the sample model does) and in a ``ChunkedArray``: one change to the middle element with a snapshot alive.
    private func measureCopyOnWrite(_ notes: [Note]) {
        var plainTimes: [Double] = []
        var chunkedTimes: [Double] = []
        for _ in 0..<rounds {
            var plain = notes
            let plainSnapshot = plain
            var start = DispatchTime.now().uptimeNanoseconds
            plain[plain.count / 2].title += "!"
            plainTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            var chunked = ChunkedArray(notes)
            let chunkedSnapshot = chunked
            start = DispatchTime.now().uptimeNanoseconds
            chunked[chunked.count / 2].title += "!"
            chunkedTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            precondition(plainSnapshot[notes.count / 2].title == notes[notes.count / 2].title)
            precondition(chunkedSnapshot[notes.count / 2].title == notes[notes.count / 2].title)
        }
        report("first change under a snapshot, notes in an Array", median(plainTimes))
        report("first change under a snapshot, notes in a ChunkedArray", median(chunkedTimes), goalMs: 1)
    }

    /// 10,000 changes a second with the real scheduler and the default configuration; counts file writes.
    private func measureStream(path: String) throws {
        let file = StateFile(path: path, schema: try NotebookSchema.make())
        let state = PersistentState(file: file, loaded: try file.load())
        defer { file.unlock() }
        let rate = 10_000
        let total = rate * streamSeconds
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<total {
            let due = start + UInt64(index) * 1_000_000_000 / UInt64(rate)
            while DispatchTime.now().uptimeNanoseconds < due {}
            try state.apply { touch(&$0, index) }
        }
        let streamEnd = DispatchTime.now().uptimeNanoseconds
        let writesDuringStream = state.status.savesPerformed + (state.status.isSaving ? 1 : 0)
        try state.waitUntilDurableBlocking(state.status.revision, timeout: .seconds(60))
        let status = state.status
        let maximumDelay = state.configuration.maximumDelay.seconds
        let goal = Int(Double(streamSeconds) / maximumDelay) + 1
        print(
            String(
                format: "stream: %d changes in %.2f s; file writes %d (%d started during the stream, then the "
                    + "final quiet-period save); goal ≤ %d %@; changes coalesced %llu",
                total, Double(streamEnd - start) / 1e9, status.savesPerformed, writesDuringStream, goal,
                status.savesPerformed <= goal ? "ok" : "OVER", status.changesCoalesced))
    }

    /// SIGTERM → exit of the crash tester holding this state, dirty (one change, long debounce) and clean.
    private func measureShutdown(path: String, baseline: Baseline) throws {
        let binary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "."
        let tester = (binary as NSString).deletingLastPathComponent + "/StateStoreCrashTester"
        guard FileManager.default.isExecutableFile(atPath: tester) else {
            print("SIGTERM → exit: skipped, \(tester) is not built")
            return
        }
        var cold: [Double] = []
        var coldFlushes: [Double] = []
        var warm: [Double] = []
        var warmFlushes: [Double] = []
        var clean: [Double] = []
        var baselineTimes: [Double] = []
        for _ in 0..<rounds {
            baselineTimes.append(try baseline.measure())
            let first = try timeTermination(tester: tester, path: path, options: ["--changes", "1"])
            cold.append(first.total)
            coldFlushes.append(first.flush ?? .nan)
            let later = try timeTermination(tester: tester, path: path, options: ["--flush-first", "--changes", "1"])
            warm.append(later.total)
            warmFlushes.append(later.flush ?? .nan)
            clean.append(try timeTermination(tester: tester, path: path, options: ["--changes", "0"]).total)
        }
        let baseline = median(baselineTimes)
        report("baseline: encode + durable replace (interleaved)", baseline)
        report("SIGTERM → exit, dirty, process saved before", median(warm), against: baseline, goal: 1.2)
        report("  of which the flush (tester's own timing)", median(warmFlushes), against: baseline)
        report("SIGTERM → exit, dirty, first save of the process", median(cold), against: baseline, goal: 1.2)
        let paired = median(zip(cold, baselineTimes).map { $0 / $1 })
        print(String(format: "  median of per-round ratios (÷ the baseline run just before it) %.3f", paired))
        report("  of which the flush (tester's own timing)", median(coldFlushes), against: baseline)
        report("SIGTERM → exit, clean state", median(clean), goalMs: 20)
    }

    /// Starts the tester, waits for `ready`, sends SIGTERM and times until its stdout closes (the exit); also
    /// returns the duration of the flush's save as the tester printed it on stderr.
    private func timeTermination(
        tester: String, path: String, options: [String]
    ) throws -> (total: Double, flush: Double?) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tester)
        process.arguments = [path, "--debounce-ms", "600000", "--max-delay-ms", "600000"] + options
        let output = Pipe()
        let diagnostics = Pipe()
        process.standardOutput = output
        process.standardError = diagnostics
        try process.run()
        var received = Data()
        // Not the first line: with --flush-first a "durable" line comes before "ready".
        while !String(decoding: received, as: UTF8.self).split(separator: "\n").contains(where: {
            $0.hasPrefix("ready")
        }) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received.append(chunk)
        }
        let start = DispatchTime.now().uptimeNanoseconds
        kill(process.processIdentifier, SIGTERM)
        var after = Data()
        while case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty { after.append(chunk) }
        let end = DispatchTime.now().uptimeNanoseconds
        let flushed = String(decoding: after, as: UTF8.self).contains("durable ")
        guard flushed == (options.last != "0") else {
            throw BenchmarkFailure(description: "the SIGTERM flush \(flushed ? "wrote" : "did not write") (\(options))")
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw BenchmarkFailure(description: "the tester did not exit cleanly on SIGTERM")
        }
        // "saved N in 0.123456789 seconds"
        let lines = String(decoding: diagnostics.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let flush = lines.split(separator: "\n").last.flatMap { line in
            line.split(separator: " ").dropFirst(3).first.flatMap { Double($0) }
        }
        return (Double(end - start) / 1e9, flush)
    }

    private func report(
        _ name: String, _ seconds: Double, against baseline: Double? = nil, goal: Double? = nil, goalMs: Double? = nil
    ) {
        var line = name.padding(toLength: 56, withPad: " ", startingAt: 0) + String(format: "%9.3f ms", seconds * 1000)
        if let baseline {
            let ratio = seconds / baseline
            line += String(format: "   ratio %.3f", ratio)
            if let goal { line += String(format: " (goal ≤ %.2f) %@", goal, ratio <= goal ? "ok" : "OVER") }
        }
        if let goalMs {
            line += String(format: "   (goal ≤ %.0f ms) %@", goalMs, seconds * 1000 <= goalMs ? "ok" : "OVER")
        }
        print(line)
    }
}

/// Plain `StateFile.encode` + `DurableWriter.write` of the same model: the work a save cannot avoid.
struct Baseline {
    let file: StateFile<Notebook>
    let model: Notebook
    let path: String

    init(path: String, model: Notebook) throws {
        // Not loaded: encode needs no load, and the writer bypasses the state file's lock.
        file = StateFile(path: path, schema: try NotebookSchema.make())
        self.model = model
        self.path = path + ".baseline"
    }

    func measure() throws -> Double {
        let writer = DurableWriter()
        return try seconds { try writer.write(try file.encode(model), to: path) }
    }
}

/// Changes one note's title: a change that touches the big collection.
private func touch(_ notebook: inout Notebook, _ index: Int) {
    notebook.notes[index % notebook.notes.count].title = "changed \(index)"
}

private func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

private func median(_ values: [Double]) -> Double {
    values.isEmpty ? 0 : values.sorted()[values.count / 2]
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// A benchmark step that did not behave.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
}
