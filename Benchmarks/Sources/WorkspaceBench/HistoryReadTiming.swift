import Foundation
import StateStore
import WorkspaceModel
import WorkspaceStorage

/// The read of a past state (issue 42): `model(atRevision:)` of the revision before the current one, on a history
/// whose newest snapshot is followed by about ``replayBytes`` of journal segments, so that the read decodes the
/// snapshot and replays every one of them, against `StateFile.load` of the snapshot's file, the two interleaved
/// round by round.
///
/// The history is made as a running daemon makes it: the renames of ``WorkspaceTouch`` through the change journal,
/// saved every ``segmentBytes`` of journal (each save moves its closed segment into the history), with the default
/// history, whose next snapshot is due after 16 MiB of segments; the last segment stays in the journal, as the one
/// a running state appends to.
struct HistoryReadTiming {
    /// The figures, in seconds.
    struct Result: Codable {
        /// `model(atRevision:)`, median.
        var readSeconds: Double
        /// `StateFile.load` of the snapshot's file, median.
        var loadSeconds: Double
        /// `readSeconds / loadSeconds`.
        var ratio: Double
        /// The median of the rounds' own ratios.
        var pairedRatio: Double
        /// The most ``ratio`` may be.
        var goal = 2.0
        /// The snapshot's bytes.
        var snapshotBytes: Int
        /// Bytes of the segments after the snapshot (headers and markers included), the live one with them.
        var replayedBytes: Int
        /// Changes replayed onto the snapshot.
        var replayedChanges: Int
        /// Segments moved into the history, besides the live one.
        var archivedSegments: Int
    }

    /// The workspace file the state starts from.
    let file: Data
    /// Where the state is made (a directory of its own, on a disk).
    let directory: String
    /// The segment bytes to replay.
    let replayBytes: Int
    /// The journal bytes between two saves.
    var segmentBytes = 2 << 20
    /// Reads (and loads) timed.
    let rounds: Int

    /// Makes the history, then times the reads and the loads.
    func run() throws -> Result {
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/workspace.json"
        try file.write(to: URL(fileURLWithPath: path))
        let stateFile = StateFile(path: path, schema: try WorkspaceSchema.make())
        let state = try PersistentState(
            file: stateFile, loaded: try stateFile.load(), journaling: WorkspaceChange.self,
            history: HistoryConfiguration(),
            configuration: PersistenceConfiguration(debounce: .seconds(3600), maximumDelay: .seconds(3600)))
        defer { stateFile.unlock() }
        let ids = state.read { Array($0.projects.prefix(100).map(\.id)) }
        // The first save keeps the history's first snapshot: the base of every read below.
        try WorkspaceTouch.rename(state, ids: ids, 0)
        try state.flushSynchronously()
        let snapshotRevision = state.status.revision
        let (last, archived, replayed) = try appendSegments(state, ids: ids)
        guard let history = state.historyStatus, history.snapshotCount == 1 else {
            throw BenchError("the history should hold one snapshot: \(String(describing: state.historyStatus))")
        }
        let target = state.status.revision - 1
        let loadPath = try copyOfSnapshot(history.directory)
        var reads: [Double] = []
        var loads: [Double] = []
        for _ in 0..<max(1, rounds) {
            // Each result is released after its clock stops, as a program keeps what it loads.
            var loaded: LoadedState<Workspace>?
            loads.append(try timed { loaded = try load(loadPath) })
            withExtendedLifetime(loaded) {}
            var past: Workspace?
            reads.append(try timed { past = try state.model(atRevision: target) })
            // The project the last change renamed holds the name the change 100 renames before gave it.
            let name = past?.projects.first { $0.id == ids[last % ids.count] }?.name
            guard name == "renamed \(last - ids.count)" else {
                throw BenchError("revision \(target) read \(name ?? "no project"), not renamed \(last - ids.count)")
            }
        }
        return Result(
            readSeconds: median(reads), loadSeconds: median(loads), ratio: median(reads) / median(loads),
            pairedRatio: median(zip(reads, loads).map { $0 / $1 }),
            snapshotBytes: Self.size(of: loadPath), replayedBytes: replayed,
            replayedChanges: Int(target - snapshotRevision), archivedSegments: archived)
    }

    /// Renames until about ``replayBytes`` of segments follow the snapshot, saving every ``segmentBytes``; returns
    /// the last rename's index, the segments saves moved into the history and the bytes of them all.
    private func appendSegments(
        _ state: PersistentState<Workspace>, ids: [WorkspaceID]
    ) throws -> (last: Int, archived: Int, bytes: Int) {
        var index = 0
        var archivedBytes = 0
        var archived = 0
        while true {
            let live = state.journalStatus?.byteCount ?? 0
            if archivedBytes + live >= replayBytes { return (index, archived, archivedBytes + live) }
            if live >= segmentBytes {
                archivedBytes += live
                archived += 1
                try state.flushSynchronously()
            }
            for _ in 0..<64 {
                index += 1
                try WorkspaceTouch.rename(state, ids: ids, index)
            }
        }
    }

    /// A copy of the history's snapshot, the file `model(atRevision:)` decodes, for the loads to read.
    private func copyOfSnapshot(_ historyDirectory: String) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: historyDirectory)
        guard let snapshot = names.first(where: { $0.hasPrefix("snapshot.") }) else {
            throw BenchError("no snapshot in \(historyDirectory)")
        }
        let loadDirectory = directory + "/load"
        try FileManager.default.createDirectory(atPath: loadDirectory, withIntermediateDirectories: true)
        let path = loadDirectory + "/workspace.json"
        try FileManager.default.copyItem(atPath: historyDirectory + "/" + snapshot, toPath: path)
        return path
    }

    /// `StateFile.load` of the file at `path`, with the workspace's schema, as the daemon loads it.
    private func load(_ path: String) throws -> LoadedState<Workspace> {
        let file = StateFile(path: path, schema: try WorkspaceSchema.make())
        defer { file.unlock() }
        return try file.load()
    }

    /// The size of the file at `path`.
    static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
