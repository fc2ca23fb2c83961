import Foundation
import StateStore
import WorkspaceModel
import WorkspaceStorage

/// A start after a crash (`WorkspaceBench replay`): a generated workspace and the change journal a crash left
/// behind, about ``journalBytes`` of renames of a hundred projects, loaded and replayed as the daemon starts
/// (`PersistentState(file:loaded:journaling:)`), against `StateFile.load` of the same file alone, the two taking
/// turns round by round on fresh copies of the crashed files. The replay's speed is the journal's bytes over the
/// difference of the medians.
struct StartReplayTiming {
    /// The workspace file.
    let file: Data
    /// Where the files are made (a directory of its own, on a disk).
    let directory: String
    /// The journal bytes the crash leaves.
    let journalBytes: Int
    /// Starts (and loads) timed.
    let rounds: Int

    /// What `make bench` keeps of a run in the `replay` section of results.json.
    struct Figures: Encodable {
        /// The workspace file's bytes.
        var fileBytes: Int
        /// The journal's bytes the crash left.
        var journalBytes: Int
        /// The changes the start replayed.
        var replayedChanges: Int
        /// Median of the starts (load and replay).
        var startSeconds: Double
        /// Median of the loads alone.
        var loadSeconds: Double
        /// The difference of the two medians.
        var replaySeconds: Double
        /// The journal's bytes over ``replaySeconds``, in MB/s.
        var replayMegabytesPerSecond: Double
        /// Issue 46's goal for ``replayMegabytesPerSecond``.
        var goalMegabytesPerSecond: Double
    }

    /// Makes the crashed files, then times the starts and the loads; prints one line and returns the figures.
    @discardableResult
    func run() throws -> Figures {
        try? FileManager.default.removeItem(atPath: directory)
        let crashed = directory + "/crashed"
        try FileManager.default.createDirectory(atPath: crashed, withIntermediateDirectories: true)
        try file.write(to: URL(fileURLWithPath: crashed + "/workspace.json"))
        let journal = try crash(in: crashed)
        var starts: [Double] = []
        var loads: [Double] = []
        var replayed = 0
        for round in 0..<max(1, rounds) {
            let copy = directory + "/round-\(round)"
            try FileManager.default.copyItem(atPath: crashed, toPath: copy)
            defer { try? FileManager.default.removeItem(atPath: copy) }
            let stateFile = StateFile(path: copy + "/workspace.json", schema: try WorkspaceSchema.make())
            var loaded: LoadedState<Workspace>?
            loads.append(try timed { loaded = try stateFile.load() })
            withExtendedLifetime(loaded) {}
            loaded = nil
            stateFile.unlock()
            var started: PersistentState<Workspace>?
            let startFile = StateFile(path: copy + "/workspace.json", schema: try WorkspaceSchema.make())
            starts.append(
                try timed {
                    started = try PersistentState(
                        file: startFile, loaded: try startFile.load(), journaling: WorkspaceChange.self)
                })
            replayed = started?.journalReplay?.recordsReplayed ?? 0
            guard replayed > 0 else { throw BenchError("the start replayed no change") }
            withExtendedLifetime(started) {}
            started = nil
            startFile.unlock()
        }
        let (start, load) = (median(starts), median(loads))
        let replaySeconds = max(start - load, 1e-9)
        let figures = Figures(
            fileBytes: file.count, journalBytes: journal, replayedChanges: replayed, startSeconds: start,
            loadSeconds: load, replaySeconds: replaySeconds,
            replayMegabytesPerSecond: Double(journal) / replaySeconds / 1e6, goalMegabytesPerSecond: 400)
        print(
            String(
                format: "%.1f MB + %.1f MiB journal (%d changes): start %.1f ms, load alone %.1f ms; replay %.1f ms, "
                    + "%.0f MB/s (goal ≥ 400) %@",
                Double(file.count) / 1e6, Double(journal) / 1_048_576, replayed, start * 1000, load * 1000,
                replaySeconds * 1000, Double(journal) / replaySeconds / 1e6,
                Double(journal) / replaySeconds / 1e6 >= 400 ? "ok" : "MISSED"))
        return figures
    }

    /// Renames until the journal holds ``journalBytes``, then drops the state unflushed, as a crash does; returns
    /// the journal's bytes.
    private func crash(in directory: String) throws -> Int {
        let stateFile = StateFile(path: directory + "/workspace.json", schema: try WorkspaceSchema.make())
        let state = try PersistentState(
            file: stateFile, loaded: try stateFile.load(), journaling: WorkspaceChange.self,
            journal: JournalConfiguration(maximumByteCount: .max, maximumStateFraction: .infinity),
            configuration: PersistenceConfiguration(debounce: .seconds(3600), maximumDelay: .seconds(3600)))
        let ids = state.read { Array($0.projects.prefix(100).map(\.id)) }
        var index = 0
        while (state.journalStatus?.byteCount ?? .max) < journalBytes {
            index += 1
            try WorkspaceTouch.rename(state, ids: ids, index)
        }
        let bytes = state.journalStatus?.byteCount ?? 0
        stateFile.unlock()
        return bytes
    }
}
