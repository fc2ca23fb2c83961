import Foundation
import StateStore
import StateStoreSample

/// Measures, on one generated state, the plain decode that any Codable program would do and this library's
/// loads, and prints their ratios.
struct LoadBenchmark {
    let schema: StateSchema<Notebook>
    let oldestBytes: Data
    let currentBytes: Data
    let directory: String
    let records: Int

    init(records: Int) throws {
        self.records = records
        schema = try NotebookSchema.make()
        oldestBytes = try Self.generateVersion1(records: records)
        let codec = StateCodec(schema: schema)
        currentBytes = try codec.encode(try codec.decode(oldestBytes).model)
        directory = FileManager.default.temporaryDirectory.path + "/statestore-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// What `make bench` keeps of a run in the `library` section of results.json: medians of the rounds, and the
    /// ratios against the plain decode of the same model.
    struct Figures: Encodable {
        /// Records in the generated state.
        var records: Int
        /// The version-1 and version-4 files' bytes.
        var oldestBytes: Int
        var currentBytes: Int
        /// `JSONDecoder` into a synthesized struct without unknown-field capture.
        var synthesizedSeconds: Double
        /// `JSONDecoder` into the model (`@StateModel`, unknown fields kept): the ratios' baseline.
        var plainSeconds: Double
        /// StateStore's load of the version-4 file.
        var loadCurrentSeconds: Double
        /// StateStore's load and migration of the version-1 file.
        var loadOldestSeconds: Double
        /// The three ratios, each with its goal.
        var loadCurrentRatio: Double
        var loadCurrentGoal: Double
        var loadOldestRatio: Double
        var loadOldestGoal: Double
        var captureRatio: Double
        var captureGoal: Double
    }

    @discardableResult
    func run(rounds: Int) -> Figures {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        print(
            "state: \(oldestBytes.count) bytes at version 1, \(currentBytes.count) bytes at version 4; \(rounds) rounds"
        )
        let codec = StateCodec(schema: schema)
        let path = directory + "/state.json"
        let writer = DurableWriter()
        let model = try! codec.decode(currentBytes).model
        // Interleaved: every round runs each measurement once, so load on the machine hits them alike.
        let (results, minimums) = interleavedTimings(
            rounds: rounds,
            [
                { _ = try JSONDecoder().decode(PlainNotebook.self, from: currentBytes) },
                { _ = try JSONDecoder().decode(Notebook.self, from: currentBytes) },
                { _ = try codec.decode(currentBytes) },
                { _ = try codec.decode(oldestBytes) },
                { _ = try codec.encode(model) },
                { try writer.write(currentBytes, to: path) },
                { _ = try JSONDecoder().decode(Notebook.self, from: currentBytes) },
            ])
        let plain = results[1]
        report("JSONDecoder, synthesized Codable, no unknown fields", results[0])
        report("plain JSONDecoder decode of the version-4 model", plain)
        report("StateStore load of the version-4 file", results[2], against: plain, goal: 1.05)
        report("StateStore load + migration of the version-1 file", results[3], against: plain, goal: 1.10)
        report("unknown-field capture cost (model ÷ synthesized)", results[1], against: results[0], goal: 1.2)
        print("fastest rounds (least disturbed by other load):")
        report("  plain decode again, last in the round", minimums[6], against: minimums[1], goal: nil)
        report("  StateStore load of the version-4 file", minimums[2], against: minimums[1], goal: 1.05)
        report("  StateStore load + migration of the version-1 file", minimums[3], against: minimums[1], goal: 1.10)
        report("encode (sorted keys)", results[4])
        report("durable replace (write, fsync, rename, dir fsync)", results[5])
        return Figures(
            records: records, oldestBytes: oldestBytes.count, currentBytes: currentBytes.count,
            synthesizedSeconds: results[0], plainSeconds: plain, loadCurrentSeconds: results[2],
            loadOldestSeconds: results[3], loadCurrentRatio: results[2] / plain, loadCurrentGoal: 1.05,
            loadOldestRatio: results[3] / plain, loadOldestGoal: 1.10, captureRatio: results[1] / results[0],
            captureGoal: 1.2)
    }

    private func report(_ name: String, _ seconds: Double, against baseline: Double? = nil, goal: Double? = nil) {
        var line = name.padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: "%9.2f ms", seconds * 1000)
        if let baseline {
            let ratio = seconds / baseline
            line += String(format: "   ratio %.3f", ratio)
            if let goal { line += String(format: " (goal ≤ %.2f) %@", goal, ratio <= goal ? "ok" : "OVER") }
        }
        print(line)
    }

    /// Runs each body once per round, in turn; returns the medians and the minimums (the minimum is the least
    /// disturbed by other work on a shared machine, so ratios are printed for both).
    private func interleavedTimings(rounds: Int, _ bodies: [() throws -> Void]) -> ([Double], [Double]) {
        var samples = Array(repeating: [Double](), count: bodies.count)
        for _ in 0..<max(1, rounds) {
            for (index, body) in bodies.enumerated() {
                let start = DispatchTime.now().uptimeNanoseconds
                do { try body() } catch { fatalError("benchmark step failed: \(error)") }
                samples[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
        }
        return (samples.map { $0.sorted()[$0.count / 2] }, samples.map { $0.min() ?? 0 })
    }

    /// A version-1 file (no version key) with `records` notes of about 200 bytes each.
    static func generateVersion1(records: Int) throws -> Data {
        var notes: [NoteV1] = []
        notes.reserveCapacity(records)
        for index in 0..<records {
            notes.append(
                NoteV1(
                    id: "note-\(index)-" + String(index &* 2_654_435_761 % 1_000_000_007, radix: 36),
                    title: "A note about item number \(index) with a reasonably long title",
                    kind: index % 2,
                    tags: ["tag\(index % 17)", "project-\(index % 101)", "area-\(index % 7)"]))
        }
        let notebook = NotebookV1(notes: notes, author: AuthorV1(name: "Ada Lovelace", age: "36"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(notebook)
    }
}
