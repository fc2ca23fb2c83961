import Foundation
import StateStore
import WorkspaceModel
import WorkspaceStorage

/// Changes of a loaded workspace through its change journal, as the daemon makes them, timed one call at a time so
/// that two sessions (the history off and on) can take turns: a durable change (the rename recorded, then waited
/// for until the journal's fdatasync, as `?durable=true`) and plain changes (recorded and acknowledged, not waited
/// for), timed in batches since one takes microseconds. The real scheduler gives each change its wall-clock time,
/// so a history's markers are written as the daemon writes them; snapshots are an hour apart, so that none runs
/// while measured.
final class ChangeSession {
    /// The workspace file, loaded and locked.
    let file: StateFile<Workspace>
    /// The journaled state that owns the file.
    let state: PersistentState<Workspace>
    /// The projects the renames take turns on (``WorkspaceTouch``'s).
    let ids: [WorkspaceID]
    /// The last rename's number: each gives its project a name of its own.
    private var index = 0

    /// Loads the state file at `path` as the daemon does, keeping `history`, and makes one durable change, which
    /// pays the directory fsync that makes the journal segment's name durable.
    init(path: String, history: HistoryConfiguration) throws {
        file = StateFile(path: path, schema: try WorkspaceSchema.make())
        state = try PersistentState(
            file: file, loaded: try file.load(), journaling: WorkspaceChange.self, history: history,
            configuration: PersistenceConfiguration(debounce: .seconds(3600), maximumDelay: .seconds(3600)))
        ids = state.read { Array($0.projects.prefix(100).map(\.id)) }
        _ = try durableChange()
    }

    /// Releases the state file's lock.
    func close() { file.unlock() }

    /// Seconds for one durable rename.
    func durableChange() throws -> Double {
        index += 1
        let change = WorkspaceChange.updateProject(id: ids[index % ids.count], name: "renamed \(index)", layout: nil)
        return try timed { try state.waitUntilDurableBlocking(try state.apply(change).revision) }
    }

    /// Seconds for `count` plain renames, ÷ `count`.
    func plainChanges(_ count: Int) throws -> Double {
        let first = index + 1
        index += count
        let seconds = try timed {
            for next in first...index { try WorkspaceTouch.rename(state, ids: ids, next) }
        }
        return seconds / Double(count)
    }
}
