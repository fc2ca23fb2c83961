import Foundation
import StateStore
import StateStoreTesting
import WorkspaceModel
import WorkspaceStorage

/// The state ``SaveTimings`` measures and the figures of its rounds: the workspace loaded and owned by a journaled
/// `PersistentState` on a manual clock, measured one round at a time, so that two sessions (the history off and
/// on) can take turns.
final class SaveSession {
    /// The workspace file, loaded and locked.
    let file: StateFile<Workspace>
    /// The clock the saves run on: a round moves it by the debounce.
    let scheduler = ManualPersistenceScheduler()
    /// Tells when the state file holds a revision.
    let signal = SaveSignal()
    /// The journaled state that owns the file.
    let state: PersistentState<Workspace>
    /// The projects the renames take turns on.
    let ids: [WorkspaceID]
    /// The encode + durable write each round measures first.
    let baseline: EncodeAndWrite
    /// Each round's figures, in seconds: the lock a save held to take its snapshot,
    private(set) var lock: [Double] = []
    /// the timer's callback,
    private var callback: [Double] = []
    /// the first change made while the save ran,
    private var firstChange: [Double] = []
    /// an ordinary change,
    private var ordinary: [Double] = []
    /// the save, timer → saved,
    private(set) var saves: [Double] = []
    /// and the encode + durable write.
    private var baselines: [Double] = []

    /// Loads the state file at `path` as the daemon does, keeping `history`.
    init(path: String, history: HistoryConfiguration = .off) throws {
        file = StateFile(path: path, schema: try WorkspaceSchema.make())
        state = try PersistentState(
            file: file, loaded: try file.load(), journaling: WorkspaceChange.self, history: history,
            scheduler: scheduler, observer: signal.observe)
        ids = state.read { Array($0.projects.prefix(100).map(\.id)) }
        baseline = try EncodeAndWrite(model: state.snapshot.model, path: path + ".baseline")
    }

    /// Releases the state file's lock.
    func close() { file.unlock() }

    /// One rename and its save on their own, timer → saved; returns the save's seconds. The state's first (with
    /// history, the save that keeps the history's first snapshot) is not like the others.
    func save() throws -> Double {
        try WorkspaceTouch.rename(state, ids: ids, 1_000_000 + saves.count)
        let started = ContinuousClock.now
        scheduler.advance(by: state.configuration.debounce)
        try signal.wait(for: state.status.revision)
        return (ContinuousClock.now - started).seconds
    }

    /// One round: a rename, an encode + durable write of the state (the baseline), an ordinary rename, the save
    /// timed from its timer (the lock it held, the first change made while it runs) to the state file's durable
    /// save, then a flush of that change so that the next round starts clean.
    func round(_ round: Int) throws {
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
        try state.flushSynchronously()
    }

    /// The medians of the rounds so far.
    var result: SaveTimings.Result {
        SaveTimings.Result(
            save: median(saves), encodeAndWrite: median(baselines), ownerBlocked: median(lock),
            ownerBlockedWorst: lock.max() ?? 0, timerCallback: median(callback),
            firstChangeDuringSave: median(firstChange), ordinaryChange: median(ordinary),
            pairedRatio: median(zip(saves, baselines).map { $0 / $1 }))
    }
}
