import Foundation
import StateStore
import StateStoreTesting
import WorkspaceModel
import WorkspaceStorage

/// Saves of a loaded workspace, opened with its change journal as the daemon opens it, driven by a manual clock
/// so that the instant a save starts is known: the owner's share of each save (the lock held while the timer
/// callback takes the snapshot and starts the journal's next segment), the first change made while the save holds
/// the snapshot, and the save from the timer to the state file's durable save (``SaveSignal``: the journal makes
/// the revision durable sooner), each round against an encode + durable write of the same state run just before
/// it.
struct SaveTimings {
    /// The medians of the rounds, in seconds.
    struct Result {
        var save: Double
        var encodeAndWrite: Double
        var ownerBlocked: Double
        var ownerBlockedWorst: Double
        var timerCallback: Double
        var firstChangeDuringSave: Double
        var ordinaryChange: Double
        var pairedRatio: Double
    }

    let path: String
    let rounds: Int

    /// Loads the state file at `path` as the daemon does and measures `rounds` saves.
    func run() throws -> Result {
        let file = StateFile(path: path, schema: try WorkspaceSchema.make())
        let scheduler = ManualPersistenceScheduler()
        let signal = SaveSignal()
        let state = try PersistentState(
            file: file, loaded: try file.load(), journaling: WorkspaceChange.self, scheduler: scheduler,
            observer: signal.observe)
        defer { file.unlock() }
        let ids = state.read { Array($0.projects.prefix(100).map(\.id)) }
        var lock: [Double] = []
        var callback: [Double] = []
        var firstChange: [Double] = []
        var ordinary: [Double] = []
        var saves: [Double] = []
        var baselines: [Double] = []
        let baseline = try EncodeAndWrite(model: state.snapshot.model, path: path + ".baseline")
        for round in 0..<max(1, rounds) {
            try WorkspaceTouch.rename(state, ids: ids, round * 3)
            baselines.append(try baseline.measure())
            ordinary.append(try timed { try WorkspaceTouch.rename(state, ids: ids, round * 3 + 1) })
            let started = ContinuousClock.now
            scheduler.advance(by: state.configuration.debounce)
            callback.append((ContinuousClock.now - started).seconds)
            let revision = state.status.revision
            if let held = state.status.lastSnapshotDuration { lock.append(held.seconds) }
            firstChange.append(try timed { try WorkspaceTouch.rename(state, ids: ids, round * 3 + 2) })
            try signal.wait(for: revision)
            saves.append((ContinuousClock.now - started).seconds)
            try state.flushSynchronously()  // the change made during the save, so that the next round starts clean
        }
        return Result(
            save: median(saves), encodeAndWrite: median(baselines), ownerBlocked: median(lock),
            ownerBlockedWorst: lock.max() ?? 0, timerCallback: median(callback),
            firstChangeDuringSave: median(firstChange), ordinaryChange: median(ordinary),
            pairedRatio: median(zip(saves, baselines).map { $0 / $1 }))
    }

    private func timed(_ body: () throws -> Void) rethrows -> Double {
        let started = ContinuousClock.now
        try body()
        return (ContinuousClock.now - started).seconds
    }
}
