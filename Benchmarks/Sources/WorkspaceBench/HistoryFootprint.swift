import Foundation
import StateStore
import StateStoreTesting
import WorkspaceModel
import WorkspaceStorage

/// What a history of renames takes on disk (issue 42): ``seconds`` of renames at ``rate`` a second, on a manual
/// clock with the daemon's save timings (500 ms debounce, 5 s maximum delay: a save every 5 s, each moving its
/// segment into the history), then the history's files counted by kind. Each change is 100 ms after the one before,
/// so each gets a time marker of its own, as at that rate in the daemon; each save runs to its end before the next
/// change, as it would in the 5 s between saves.
struct HistoryFootprint {
    /// The history's files after the run.
    struct Result: Codable {
        /// The state file's bytes.
        var stateBytes: Int
        /// Renames made after the first snapshot.
        var changes: Int
        /// Segments in the history (one per save).
        var segmentCount: Int
        /// Their bytes: headers, change records and markers.
        var segmentBytes: Int
        /// One snapshot: the state file as saved.
        var snapshotBytes: Int
        /// `manifest.json`, which the history's size bound does not count.
        var manifestBytes: Int
        /// Files the manifest records.
        var manifestFiles: Int
        /// A save, the timer to its end (its segment moved into the history and the manifest rewritten): the
        /// median of the run's first tenth of saves and of its last, as the history grows.
        var firstSavesSeconds = 0.0
        /// See ``firstSavesSeconds``.
        var lastSavesSeconds = 0.0
        /// The history's bound in the run.
        var maximumByteCount = 0
        /// Once the run pruned: the least and the most simulated seconds between the oldest revision the history
        /// could give (``HistoryStatus/oldestDate``) and the last change, after each save; `nil` before any prune.
        var observedLeastSeconds: Double?
        /// See ``observedLeastSeconds``.
        var observedMostSeconds: Double?

        /// Segments the run moved into the history: one per save, the last flush's with them (more than
        /// ``segmentCount`` once it pruned).
        var archivedSegments = 0

        /// Segment bytes per change: a segment's bytes on average ÷ the changes a save took.
        var bytesPerChange: Double {
            Double(segmentBytes) / Double(max(1, segmentCount)) * Double(archivedSegments) / Double(max(1, changes))
        }
        /// Manifest bytes per file it records.
        var manifestBytesPerFile: Double { Double(manifestBytes) / Double(max(1, manifestFiles)) }
    }

    /// The workspace file the state starts from.
    let file: Data
    /// Where the state is made (a directory of its own, on a disk).
    let directory: String
    /// Simulated seconds of renames.
    let seconds: Int
    /// Renames a second.
    var rate = 10
    /// The history's `maximumByteCount`: the default, 64 MiB, unless a run checks ``HistoryRetention`` on a bound it
    /// reaches.
    var maximumByteCount = 64 << 20

    /// Runs the renames and counts the history's files.
    func run() throws -> Result {
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/workspace.json"
        try file.write(to: URL(fileURLWithPath: path))
        let stateFile = StateFile(path: path, schema: try WorkspaceSchema.make())
        let scheduler = ManualPersistenceScheduler()
        let state = try PersistentState(
            file: stateFile, loaded: try stateFile.load(), journaling: WorkspaceChange.self,
            history: HistoryConfiguration(maximumByteCount: maximumByteCount), scheduler: scheduler)
        defer { stateFile.unlock() }
        let ids = state.read { Array($0.projects.prefix(100).map(\.id)) }
        // The first save keeps the first snapshot; the segment before it, which no snapshot leads to, is dropped.
        try WorkspaceTouch.rename(state, ids: ids, 0)
        try state.flushSynchronously()
        let changes = seconds * rate
        var saves: [Double] = []
        var spans = Spans(first: state.historyStatus?.oldestRevision)
        for index in 1...max(1, changes) {
            try WorkspaceTouch.rename(state, ids: ids, index)
            let started = ContinuousClock.now
            scheduler.advance(by: .milliseconds(1000 / rate))
            guard state.status.isSaving else { continue }
            while state.status.isSaving { usleep(50) }
            saves.append((ContinuousClock.now - started).seconds)
            if let status = state.historyStatus { spans.note(status, now: scheduler.date) }
        }
        try state.flushSynchronously()
        var result = try count(in: path + ".history", changes: max(1, changes))
        result.maximumByteCount = maximumByteCount
        // Without a prune every segment is still there; after one, a save moved one each (and the flush one more).
        result.archivedSegments = spans.least == nil ? result.segmentCount : saves.count + 1
        result.observedLeastSeconds = spans.least
        result.observedMostSeconds = spans.most
        let tenth = max(1, saves.count / 10)
        result.firstSavesSeconds = median(Array(saves.prefix(tenth)))
        result.lastSavesSeconds = median(Array(saves.suffix(tenth)))
        return result
    }

    /// How far back the history reaches after each save, once it has pruned.
    private struct Spans {
        /// The oldest revision before any prune.
        var first: UInt64?
        /// The least and the most seconds seen since.
        var least: Double?
        /// See ``least``.
        var most: Double?

        /// Notes how far back `status` reaches at `now`.
        mutating func note(_ status: HistoryStatus, now: Date) {
            guard let oldest = status.oldestRevision, let date = status.oldestDate else { return }
            guard let first, oldest > first else {
                first = first ?? oldest
                return
            }
            let span = now.timeIntervalSince(date)
            least = min(least ?? span, span)
            most = max(most ?? span, span)
        }
    }

    /// The bytes of the files of the history in `historyDirectory`, by kind.
    private func count(in historyDirectory: String, changes: Int) throws -> Result {
        var result = Result(
            stateBytes: file.count, changes: changes, segmentCount: 0, segmentBytes: 0, snapshotBytes: 0,
            manifestBytes: 0, manifestFiles: 0)
        for name in try FileManager.default.contentsOfDirectory(atPath: historyDirectory) {
            let bytes = HistoryReadTiming.size(of: historyDirectory + "/" + name)
            if name.hasPrefix("journal.") {
                result.segmentCount += 1
                result.segmentBytes += bytes
                result.manifestFiles += 1
            } else if name.hasPrefix("snapshot.") {
                result.snapshotBytes = max(result.snapshotBytes, bytes)
                result.manifestFiles += 1
            } else if name == "manifest.json" {
                result.manifestBytes = bytes
            }
        }
        return result
    }
}
