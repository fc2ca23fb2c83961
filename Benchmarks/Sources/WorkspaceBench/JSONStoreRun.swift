import Foundation
import StateStore
import WorkspaceModel
import WorkspaceStorage

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

    /// Seconds for one durable single-record change through the change journal, as the daemon makes it since
    /// issue 28: the rename recorded in the journal, answered after the journal's fdatasync; the snapshot stays in
    /// the background (one durable change before it is not timed: ``journaled(projectID:)``).
    func journaledChange(projectID: String) throws -> Double {
        let (state, id) = try journaled(projectID: projectID)
        return try timed {
            let applied = try state.apply(
                WorkspaceChange.updateProject(id: id, name: PeerBenchmark.newName, layout: nil))
            try state.waitUntilDurableBlocking(applied.revision)
        }
    }

    /// Seconds for ``PeerBenchmark/clients`` threads to make ``PeerBenchmark/changesPerClient`` durable renames
    /// each through the change journal, each waiting for its change to be durable before the next (the daemon's
    /// `?durable=true` under concurrent clients): their waits share fdatasyncs.
    func concurrentChanges(projectID: String) throws -> Double {
        let (state, id) = try journaled(projectID: projectID)
        return try timed {
            try PeerBenchmark.onClientThreads { client in
                for index in 0..<PeerBenchmark.changesPerClient {
                    let change = WorkspaceChange.updateProject(id: id, name: "c\(client)-\(index)", layout: nil)
                    try state.waitUntilDurableBlocking(try state.apply(change).revision)
                }
            }
        }
    }

    /// Seconds for a start after a crash that left a full change journal (renames up to ``JournalConfiguration``'s
    /// default bound for the file's size: ``journalBound(fileBytes:)``): load the file and replay the journal, as
    /// the daemon starts. Making the journal and the crash (the lock released, nothing flushed) are not timed.
    /// Returns the seconds and the changes replayed.
    func readyAfterCrash(projectID: String) throws -> (seconds: Double, replayed: Int) {
        guard let id = WorkspaceID(projectID) else { throw BenchError("\(projectID) is not an id") }
        let fileBytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let bound = Self.journalBound(fileBytes: fileBytes)
        do {
            let file = try open()
            let state = try PersistentState(
                file: file, loaded: try file.load(), journaling: WorkspaceChange.self,
                journal: JournalConfiguration(maximumByteCount: .max, maximumStateFraction: .infinity),
                configuration: PersistenceConfiguration(debounce: .seconds(3600), maximumDelay: .seconds(3600)))
            var index = 0
            while (state.journalStatus?.byteCount ?? .max) < bound {
                index += 1
                try state.apply(WorkspaceChange.updateProject(id: id, name: "crash \(index)", layout: nil))
            }
            file.unlock()
        }
        var replayed = 0
        var kept: PersistentState<Workspace>?
        let seconds = try timed {
            let file = try open()
            kept = try PersistentState(file: file, loaded: try file.load(), journaling: WorkspaceChange.self)
            replayed = kept?.journalReplay?.recordsReplayed ?? 0
        }
        withExtendedLifetime(kept) {}
        return (seconds, replayed)
    }

    /// The journal's bound for a state file of `fileBytes` under the default configuration, which the daemon runs:
    /// past it, a snapshot is taken, so a crash leaves at most that much to replay.
    static func journalBound(fileBytes: Int) -> Int {
        JournalConfiguration().bound(stateByteCount: fileBytes)
    }

    /// The file loaded and owned by a journaled `PersistentState` (snapshots a minute apart, so none is taken
    /// while measured), after one durable change of `projectID`, which pays the directory fsync that makes the
    /// first segment's name durable (once per segment).
    private func journaled(projectID: String) throws -> (PersistentState<Workspace>, WorkspaceID) {
        let file = try open()
        let state = try PersistentState(
            file: file, loaded: try file.load(), journaling: WorkspaceChange.self,
            configuration: PersistenceConfiguration(debounce: .seconds(60), maximumDelay: .seconds(60)))
        guard let id = WorkspaceID(projectID) else { throw BenchError("\(projectID) is not an id") }
        let warmUp = try state.apply(WorkspaceChange.updateProject(id: id, name: "warm-up", layout: nil))
        try state.waitUntilDurableBlocking(warmUp.revision)
        return (state, id)
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
