import Foundation
import StateStore

/// What keeping a history costs the persistence benchmark's workloads (issue 42): the saves of ``SaveTimings``
/// (``SaveSession``) and the durable and plain changes of ``ChangeSession``, on two fresh copies of one workspace
/// file in the same process, one with the history off and one with the default history (7 days, 64 MiB), taking
/// turns operation by operation (the order flipping each time), so that whatever else the machine does weighs on
/// both alike. Each block starts from fresh copies, so its first save is the state's first (with the history on,
/// the one that keeps the history's first snapshot).
struct HistoryOverhead {
    /// One figure with the history off and on: the medians of the samples, in seconds, and on ÷ off.
    struct Pair: Codable {
        /// History off.
        var off: Double
        /// History on.
        var on: Double
        /// `on / off`.
        var ratio: Double
        /// The median of on ÷ off of the samples taken one after the other.
        var pairedRatio: Double

        /// The pair of the samples `off` and `on`, taken in turns.
        init(off: [Double], on: [Double]) {
            self.off = median(off)
            self.on = median(on)
            ratio = self.off > 0 ? self.on / self.off : 0
            pairedRatio = median(zip(on, off).map { $1 > 0 ? $0 / $1 : 0 })
        }
    }

    /// Every figure, off and on.
    struct Result: Codable {
        /// A durable change (the journal's fdatasync), ``ChangeSession``.
        var durableChange: Pair
        /// A plain change, ``ChangeSession``.
        var plainChange: Pair
        /// A save of the whole state, timer → reported (with history: its segment moved into the history).
        var save: Pair
        /// The state's first save (with history: the one that keeps the first snapshot, linked and checksummed).
        var firstSave: Pair
        /// The lock held while a save takes its snapshot.
        var ownerBlocked: Pair
    }

    /// The workspace file both copies start from.
    let file: Data
    /// Where the copies are made (a directory of its own, on a disk).
    let directory: String
    /// Blocks, each on fresh copies.
    let blocks: Int
    /// Save rounds per block and copy.
    var savesPerBlock = 4
    /// Durable changes per block and copy.
    var durablePerBlock = 20
    /// Batches of ``plainBatch`` plain changes per block and copy.
    var plainBatches = 10
    /// Plain changes timed together.
    var plainBatch = 500

    /// Runs the blocks.
    func run() throws -> Result {
        var samples = Samples()
        for block in 0..<max(1, blocks) {
            let order = block % 2 == 0 ? [false, true] : [true, false]
            try measureSaves(order, &samples)
            try measureChanges(order, &samples)
        }
        return Result(
            durableChange: samples.pair("durableChange"), plainChange: samples.pair("plainChange"),
            save: samples.pair("save"), firstSave: samples.pair("firstSave"),
            ownerBlocked: samples.pair("ownerBlocked"))
    }

    /// The samples of every figure, history off (`false`) and on, in the order taken.
    private struct Samples {
        /// By figure, then history off or on.
        var figures: [String: [Bool: [Double]]] = [:]

        /// Adds a sample of `figure`.
        mutating func add(_ figure: String, _ historyOn: Bool, _ seconds: Double) {
            figures[figure, default: [:]][historyOn, default: []].append(seconds)
        }

        /// The pair of `figure`'s samples.
        func pair(_ figure: String) -> Pair {
            Pair(off: figures[figure]?[false] ?? [], on: figures[figure]?[true] ?? [])
        }
    }

    /// One block's saves: the first save of each copy, then the rounds, taking turns in `order`, flipped each round.
    private func measureSaves(_ order: [Bool], _ samples: inout Samples) throws {
        let saves = try sessions { try SaveSession(path: $0, history: $1) }
        defer { saves.values.forEach { $0.close() } }
        for historyOn in order { samples.add("firstSave", historyOn, try saves[historyOn]!.save()) }
        for round in 0..<savesPerBlock {
            for historyOn in round % 2 == 0 ? order : order.reversed() { try saves[historyOn]!.round(round) }
        }
        for historyOn in order {
            for seconds in saves[historyOn]!.saves { samples.add("save", historyOn, seconds) }
            for seconds in saves[historyOn]!.lock { samples.add("ownerBlocked", historyOn, seconds) }
        }
    }

    /// One block's durable and plain changes, taking turns in `order`, flipped each time.
    private func measureChanges(_ order: [Bool], _ samples: inout Samples) throws {
        let changes = try sessions { try ChangeSession(path: $0, history: $1) }
        defer { changes.values.forEach { $0.close() } }
        for index in 0..<durablePerBlock {
            for historyOn in index % 2 == 0 ? order : order.reversed() {
                samples.add("durableChange", historyOn, try changes[historyOn]!.durableChange())
            }
        }
        for index in 0..<plainBatches {
            for historyOn in index % 2 == 0 ? order : order.reversed() {
                samples.add("plainChange", historyOn, try changes[historyOn]!.plainChanges(plainBatch))
            }
        }
    }

    /// A session with the history off and one with it on, each on a fresh copy of the file in a directory of its
    /// own.
    private func sessions<Session>(
        _ make: (_ path: String, _ history: HistoryConfiguration) throws -> Session
    ) throws -> [Bool: Session] {
        var sessions: [Bool: Session] = [:]
        for historyOn in [false, true] {
            let copy = directory + (historyOn ? "/on" : "/off")
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
            let path = copy + "/workspace.json"
            try file.write(to: URL(fileURLWithPath: path))
            sessions[historyOn] = try make(path, historyOn ? HistoryConfiguration() : .off)
        }
        return sessions
    }
}
