import Foundation

/// One measurement of `WorkspaceBench peer` (one store, one operation), run in a child process of its own so that
/// its peak memory (`VmHWM`) is that measurement's alone: `WorkspaceBench peer-measure STORE OPERATION PATH ID`.
struct PeerMeasurement: Codable {
    /// Where the workspace is kept.
    enum Store: String, Codable, CaseIterable {
        /// `workspace.json` through `StateStore`.
        case json
        /// The SQLite database through GRDB.
        case sqlite
    }

    /// What is measured.
    enum Operation: String, Codable, CaseIterable {
        /// Load everything into the model.
        case load
        /// Save everything, durably.
        case save
        /// Change one record, durably.
        case change
        /// Change one record, durably, through the change journal (SQLite: the same change as ``change``).
        case journaledChange
        /// ``PeerBenchmark/clients`` clients changing one record at a time, durably, all at once.
        case concurrentChanges
        /// Ready after a crash: the JSON file with a full change journal replayed (SQLite: the load).
        case readyAfterCrash
    }

    /// The seconds the operation took (what comes before it, such as the load before a save, is not counted).
    var seconds: Double
    /// The child's peak resident memory once the operation is done, everything before it included.
    var peak: Int

    /// Runs the operation in this process on the store at `path`; `projectID` names the project a change renames.
    /// A SQLite save writes a new database next to `path` (`path` + `.saved`).
    static func runHere(store: Store, operation: Operation, path: String, projectID: String) throws -> Self {
        let seconds: Double
        switch (store, operation) {
        case (.json, .load): seconds = try JSONStoreRun(path: path).load()
        case (.json, .save): seconds = try JSONStoreRun(path: path).save()
        case (.json, .change): seconds = try JSONStoreRun(path: path).change(projectID: projectID)
        case (.sqlite, .load): seconds = try SQLiteStoreRun(path: path).load()
        case (.sqlite, .save): seconds = try SQLiteStoreRun(path: path).save(into: path + ".saved")
        case (.json, .journaledChange): seconds = try JSONStoreRun(path: path).journaledChange(projectID: projectID)
        case (.json, .concurrentChanges): seconds = try JSONStoreRun(path: path).concurrentChanges(projectID: projectID)
        case (.json, .readyAfterCrash):
            seconds = try JSONStoreRun(path: path).readyAfterCrash(projectID: projectID).seconds
        case (.sqlite, .readyAfterCrash): seconds = try SQLiteStoreRun(path: path).load()
        case (.sqlite, .change), (.sqlite, .journaledChange):
            seconds = try SQLiteStoreRun(path: path).change(projectID: projectID)
        case (.sqlite, .concurrentChanges):
            seconds = try SQLiteStoreRun(path: path).concurrentChanges(projectID: projectID)
        }
        return PeerMeasurement(seconds: seconds, peak: ProcessMemory.of()?.peak ?? 0)
    }

    /// Runs ``runHere(store:operation:path:projectID:)`` in a child process (this binary, `peer-measure`).
    static func run(store: Store, operation: Operation, path: String, projectID: String) throws -> Self {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["peer-measure", store.rawValue, operation.rawValue, path, projectID]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("the \(store.rawValue) \(operation.rawValue) of \(path) failed")
        }
        return try JSONDecoder().decode(Self.self, from: bytes)
    }
}
