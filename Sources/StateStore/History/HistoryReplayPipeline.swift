import Dispatch
import FoundationEssentials

/// Replays what a read of the past needs, its snapshot and its change records, on every processor at once.
///
/// Reading a record does not depend on the model, only applying it does. The caller's thread reads and decodes the
/// snapshot (itself on two threads) while a helper checks the snapshot's bytes, reads the segments, scans them
/// (their frames' CRC-32C) and cuts their records into chunks. Once the snapshot is decoded, the helpers decode the
/// chunks while the caller applies them in order, each as soon as it is decoded, and decodes the next unclaimed
/// chunk itself while the one it needs is being decoded. The chunks wait for the snapshot: decoded while it
/// decodes, they would slow its decode by taking the processors its two threads use, and leave the applying,
/// which can only begin after it, to run alone at the end.
///
/// The helpers run on Dispatch's global queue, but nothing waits for one to start: the caller does every step no
/// helper began, so a read finishes on the caller alone when every pool thread is busy. It waits only for a step a
/// running helper is doing.
final class HistoryReplayPipeline<Change: StateChange>: @unchecked Sendable {
    /// Records per chunk for a replay of `count` records: about four chunks per processor, so that the threads
    /// finish together, within 64 (a chunk is worth a hand-over between threads) and 8,192 (a few milliseconds).
    static func chunkLength(forRecords count: Int) -> Int {
        min(8192, max(64, count / (4 * max(ProcessInfo.processInfo.activeProcessorCount, 1))))
    }

    /// A run of records of one segment.
    struct Chunk: Sendable {
        /// The segment's index in the read set.
        var segment: Int
        var locations: ArraySlice<HistorySegment.ChangeLocation>
    }

    /// Where the scan and the cut into chunks are.
    private enum Preparation {
        case pending
        case running
        case done(HistoryError?)
    }

    private let reader: JournalChangeReader<Change>
    private let checkBase: @Sendable () throws(HistoryError) -> Void
    private let loadSegments: @Sendable () throws(HistoryError) -> [(segment: HistorySegment, limit: UInt64?)]
    private let from: UInt64
    private let through: UInt64
    // Under `condition`'s lock. `set` (read and scanned), `chunks`, `chunkCount`, `places` and `baseFailure` are
    // written once, before `preparation` is `done`, and only read after, but for `set` and `chunks`, which the
    // thread that decodes the last chunk lets go (``decodedOne()``).
    private let condition = ConditionLock()
    private var set = HistoryReadSet(segments: [])
    private var chunks: [Chunk] = []
    private var chunkCount = 0
    /// Each chunk's segment's path and first record's revision (its records' are consecutive), for the errors of
    /// the applying, which goes on after `set` and `chunks` are let go.
    private var places: [(path: String, firstRevision: UInt64)] = []
    private var decodedCount = 0
    private var baseFailure: HistoryError?
    private var preparation = Preparation.pending
    /// Whether the caller has decoded the snapshot: the helpers decode no chunk before.
    private var baseDecoded = false
    private var nextUnclaimed = 0
    private var decoded: [Result<[Change?], HistoryError>?] = []
    private var stopped = false

    private init(
        checkBase: @escaping @Sendable () throws(HistoryError) -> Void,
        loadSegments: @escaping @Sendable () throws(HistoryError) -> [(segment: HistorySegment, limit: UInt64?)],
        from: UInt64, through: UInt64, reader: JournalChangeReader<Change>
    ) {
        self.checkBase = checkBase
        self.loadSegments = loadSegments
        self.from = from
        self.through = through
        self.reader = reader
    }

    /// The model at `through`: `decodeBase`'s snapshot (at `from`) with the changes of the segments
    /// `loadSegments` reads (in order, scanned whole) after it applied in place, in order.
    ///
    /// `checkBase` checks the bytes `decodeBase` decodes (their checksum), on a helper while they decode: its
    /// failure is thrown in place of whatever the decode gave.
    ///
    /// - Throws: `checkBase`'s error, the snapshot's error, then ``HistoryError/damaged(path:reason:)`` for a
    ///   segment that cannot be read, a sequence that breaks, a record that does not decode or a change that does
    ///   not apply (the first, in order).
    static func replay<Model>(
        checkBase: @escaping @Sendable () throws(HistoryError) -> Void,
        _ loadSegments: @escaping @Sendable () throws(HistoryError) -> [(segment: HistorySegment, limit: UInt64?)],
        from: UInt64, through: UInt64, reader: JournalChangeReader<Change>,
        base decodeBase: () throws(HistoryError) -> Model
    ) throws(HistoryError) -> Model where Change.Model == Model {
        let pipeline = HistoryReplayPipeline(
            checkBase: checkBase, loadSegments: loadSegments, from: from, through: through, reader: reader)
        defer { pipeline.stop() }
        for _ in 0..<max(ProcessInfo.processInfo.activeProcessorCount - 1, 0) {
            DispatchQueue.global().async { pipeline.help() }
        }
        let base = Result { () throws(HistoryError) in try decodeBase() }
        pipeline.baseIsDecoded()
        let preparationFailure = pipeline.prepared()
        if let failure = pipeline.baseFailure { throw failure }
        // Consumed: a model still shared with the result would be copied whole by the first change applied.
        var model = try (consume base).get()
        if let preparationFailure { throw preparationFailure }
        // What one chunk's applying leaves for the next (the workspace's table of where its projects are).
        var memo: Any?
        for index in 0..<pipeline.chunkCount {
            let changes = try pipeline.take(index).get()
            // In place, whatever `validatesBeforeMutating` says: a change that fails ends the read, and the model is
            // dropped with it (a copy per change would copy the model's arrays every time).
            if let failure = Change.applyInPlace(changes, to: &model, memo: &memo) {
                let place = pipeline.places[index]
                throw .damaged(
                    path: place.path,
                    reason: "the change of revision \(place.firstRevision + UInt64(failure.position)) does not apply: "
                        + (failure.error.map { "\($0)" } ?? "it was not read"))
            }
        }
        return model
    }

    /// The records of `set` after `from` through `through`, in chunks.
    ///
    /// - Throws: ``HistoryError/damaged(path:reason:)`` as ``HistoryArchive/walk(_:from:through:_:)``.
    static func chunks(_ set: HistoryReadSet, from: UInt64, through: UInt64) throws(HistoryError) -> [Chunk] {
        // Each segment's run of records, as a range of its locations.
        var runs: [(segment: Int, locations: [HistorySegment.ChangeLocation], range: Range<Int>)] = []
        // The last run's segment and end, kept apart so that a record costs no copy of a run (nor its reference
        // counting).
        var segment = -1
        var end = 0
        _ = try HistoryArchive.walkLocations(set, from: from, through: through) { index, locations, position in
            if index != segment {
                if !runs.isEmpty { runs[runs.count - 1].range = runs[runs.count - 1].range.lowerBound..<end }
                runs.append((index, locations, position..<position))
                segment = index
            }
            end = position + 1
            return true
        }
        if !runs.isEmpty { runs[runs.count - 1].range = runs[runs.count - 1].range.lowerBound..<end }
        let chunkLength = chunkLength(forRecords: runs.reduce(0) { $0 + $1.range.count })
        return runs.flatMap { segment, locations, range in
            stride(from: range.lowerBound, to: range.upperBound, by: chunkLength).map {
                Chunk(segment: segment, locations: locations[$0..<min($0 + chunkLength, range.upperBound)])
            }
        }
    }

    /// A helper's work: the preparation when nobody began it, then, once the snapshot is decoded, unclaimed
    /// chunks until none is left or the replay stopped.
    private func help() {
        guard prepared() == nil else { return }
        while let index = claim() { deliver(index, decode(chunks[index])) }
    }

    /// Checks the snapshot's bytes, reads and scans the segments and cuts the records into chunks, here when nobody
    /// began to, or waits for whoever did; the error that ends the replay, if any (the snapshot's check's is in
    /// `baseFailure`).
    private func prepared() -> HistoryError? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            switch preparation {
            case .done(let failure):
                return baseFailure ?? failure
            case .running:
                condition.wait()
            case .pending:
                preparation = .running
                condition.unlock()
                var scanned = HistoryReadSet(segments: [])
                let checked = Result { () throws(HistoryError) in try checkBase() }
                let result = Result { () throws(HistoryError) in
                    try checked.get()
                    scanned.segments = try loadSegments()
                    return try Self.chunks(scanned, from: from, through: through)
                }
                condition.lock()
                set = scanned
                if case .failure(let failure) = checked { baseFailure = failure }
                switch result {
                case .success(let made):
                    chunks = made
                    chunkCount = made.count
                    places = made.map { (scanned.segments[$0.segment].segment.path, $0.locations.first?.revision ?? 0) }
                    decoded = Array(repeating: nil, count: made.count)
                    preparation = .done(nil)
                case .failure(let failure):
                    preparation = .done(failure)
                }
                condition.broadcast()
            }
        }
    }

    /// Claims the next chunk nobody decodes yet, once the snapshot is decoded.
    private func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while !baseDecoded && !stopped { condition.wait() }
        guard !stopped, nextUnclaimed < chunkCount else { return nil }
        nextUnclaimed += 1
        return nextUnclaimed - 1
    }

    /// Hands a helper's chunk over; dropped when the replay stopped (it threw, or a later chunk is all it left).
    private func deliver(_ index: Int, _ result: Result<[Change?], HistoryError>) {
        condition.lock()
        if !stopped { decoded[index] = result }
        let inputs = decodedOne()
        condition.broadcast()
        condition.unlock()
        withExtendedLifetime(inputs) {}
    }

    /// Counts a chunk decoded, under the lock; after the last, takes `set` and `chunks` for the caller to let go
    /// once it has unlocked. The segments' mappings and the records' places then go on the thread that decoded the
    /// last chunk, a helper's as a rule, while the caller applies the last chunks, rather than after them.
    private func decodedOne() -> (HistoryReadSet, [Chunk])? {
        decodedCount += 1
        guard decodedCount == chunkCount else { return nil }
        defer {
            set = HistoryReadSet(segments: [])
            chunks = []
        }
        return (set, chunks)
    }

    /// Lets the helpers decode chunks: the caller has decoded the snapshot (or failed to).
    private func baseIsDecoded() {
        condition.lock()
        baseDecoded = true
        condition.broadcast()
        condition.unlock()
    }

    /// The changes of chunk `index`, which every chunk before it was taken: decoded here when nobody claimed it.
    /// While a helper decodes it, the caller decodes the next unclaimed chunk instead of waiting, and waits only
    /// when every chunk is claimed: applying is the caller's alone, so a caller that only waited would leave the
    /// helpers to decode every chunk while it idles between applies.
    private func take(_ index: Int) -> Result<[Change?], HistoryError> {
        condition.lock()
        var inputs: (HistoryReadSet, [Chunk])?
        while decoded[index] == nil {
            if nextUnclaimed < chunkCount {
                // Chunks are claimed in order and every one before `index` was taken, so the next unclaimed one
                // is `index` itself or a later one.
                let claimed = nextUnclaimed
                nextUnclaimed += 1
                condition.unlock()
                let result = decode(chunks[claimed])
                condition.lock()
                decoded[claimed] = result
                inputs = decodedOne()
            } else {
                condition.wait()
            }
        }
        let result = decoded[index]!
        decoded[index] = nil
        condition.unlock()
        withExtendedLifetime(inputs) {}
        return result
    }

    /// Ends the helpers' work: they claim no more chunks.
    private func stop() {
        condition.lock()
        stopped = true
        decoded = []
        condition.broadcast()
        condition.unlock()
    }

    /// The changes of one chunk: by the direct reader, and those it refused through `Codable`.
    private func decode(_ chunk: Chunk) -> Result<[Change?], HistoryError> {
        let segment = set.segments[chunk.segment].segment
        // The chunk's records are read in place, so that the threads share no reference count per record.
        return segment.bytes.withUnsafeBytes { raw in
            let documents = chunk.locations.map { UnsafeRawBufferPointer(rebasing: raw[$0.change]) }
            var (changes, refusedCount) = documents.withUnsafeBufferPointer { reader.readDirectly($0) }
            // Usually none: the loop below, generic here, runs only for a chunk with records the direct reader
            // refused.
            guard refusedCount > 0 else { return .success(changes) }
            for (index, location) in zip(changes.indices, chunk.locations) where changes[index] == nil {
                do {
                    changes[index] = try reader.read(segment.slice(location.change))
                } catch {
                    return .failure(
                        .damaged(
                            path: segment.path,
                            reason: "the change of revision \(location.revision) does not decode: \(error)"))
                }
            }
            return .success(changes)
        }
    }
}
