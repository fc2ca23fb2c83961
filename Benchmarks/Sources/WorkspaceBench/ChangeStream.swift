import Foundation
import StateStore
import WorkspaceModel
import WorkspaceStorage

/// A constant stream of 10,000 changes a second for a number of seconds on a loaded workspace, each recorded in
/// the change journal as in the daemon, with the real scheduler and the daemon's default save timing (debounce
/// 500 ms, maximum delay 5 s): how many times the file is written, the final quiet-period save included.
struct ChangeStream {
    /// What the stream did.
    struct Result {
        var changes: Int
        var seconds: Double
        var fileWrites: Int
        var writesStartedDuringStream: Int
        var changesCoalesced: UInt64
        /// At most one write per maximum delay during the stream, and the final one.
        var goal: Int
    }

    let path: String
    let seconds: Int
    let rate = 10_000

    /// Loads the state file at `path` as the daemon does and runs the stream.
    func run() throws -> Result {
        let file = StateFile(path: path, schema: try WorkspaceSchema.make())
        let signal = SaveSignal()
        let state = try PersistentState(
            file: file, loaded: try file.load(), journaling: WorkspaceChange.self, observer: signal.observe)
        defer { file.unlock() }
        let ids = state.read { Array($0.projects.prefix(100).map(\.id)) }
        let total = rate * seconds
        let started = ContinuousClock.now
        for index in 0..<total {
            let due = started + .nanoseconds(Int64(index) * 1_000_000_000 / Int64(rate))
            while ContinuousClock.now < due {}
            try WorkspaceTouch.rename(state, ids: ids, index)
        }
        let elapsed = (ContinuousClock.now - started).seconds
        let during = state.status.savesPerformed + (state.status.isSaving ? 1 : 0)
        try signal.wait(for: state.status.revision)
        let status = state.status
        return Result(
            changes: total, seconds: elapsed, fileWrites: status.savesPerformed, writesStartedDuringStream: during,
            changesCoalesced: status.changesCoalesced,
            goal: Int(Double(seconds) / state.configuration.maximumDelay.seconds) + 1)
    }
}
