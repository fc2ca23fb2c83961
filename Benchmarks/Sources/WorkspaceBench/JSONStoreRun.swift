import Foundation
import StateStore
import WorkspaceModel

/// The JSON side of `WorkspaceBench peer`: `workspace.json` through `StateStore` with the real `WorkspaceModel`,
/// opened as the daemon opens it (the schema with its migrations and repairs, the `salvage` policy and three
/// backups of its default configuration, the exclusive lock), in this process: a library call, not the daemon.
struct JSONStoreRun {
    /// The workspace file.
    let path: String

    /// Opens the file as the daemon does; nothing is read yet.
    func open() throws -> StateFile<Workspace> {
        StateFile(
            path: path, schema: try WorkspaceSchema.make(),
            configuration: StateFileConfiguration(corruptFilePolicy: .salvage, backupsKept: 3))
    }

    /// Seconds to load everything: open, lock, read, decode, validate and repair (`StateFile.load()`). The file and
    /// the model are released after the clock stops, as a program keeps them.
    func load() throws -> Double {
        var kept: (StateFile<Workspace>, LoadedState<Workspace>)?
        let seconds = try timed {
            let file = try open()
            kept = (file, try file.load())
        }
        withExtendedLifetime(kept) {}
        return seconds
    }

    /// Seconds for a full durable save of the loaded state through the daemon's save path: a change that
    /// changes nothing, then `PersistentState.flushSynchronously()` (encode, write a temporary file, fsync it,
    /// rename it over the file, fsync the directory). The load before it is not timed.
    func save() throws -> Double {
        let state = try loaded()
        return try timed {
            try state.apply { (_: inout Workspace) in () }
            try state.flushSynchronously()
        }
    }

    /// Seconds for one durable single-record change: the project `projectID` renamed as the control API renames
    /// it (a validating mutation applied in place), then flushed durably, which rewrites the whole file. The load
    /// before it is not timed.
    func change(projectID: String) throws -> Double {
        let state = try loaded()
        guard let id = WorkspaceID(projectID) else { throw BenchError("\(projectID) is not an id") }
        return try timed {
            try state.apply(validatesBeforeMutating: true) { (workspace: inout Workspace) throws(WorkspaceError) in
                try workspace.renameProject(id, to: PeerBenchmark.newName)
            }
            try state.flushSynchronously()
        }
    }

    /// The file loaded and owned by a `PersistentState`, as the daemon runs it.
    private func loaded() throws -> PersistentState<Workspace> {
        let file = try open()
        return PersistentState(file: file, loaded: try file.load())
    }
}

/// Seconds `body` took.
func timed(_ body: () throws -> Void) rethrows -> Double {
    let started = ContinuousClock.now
    try body()
    return (ContinuousClock.now - started).seconds
}
