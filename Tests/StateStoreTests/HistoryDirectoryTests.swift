import Foundation
import StateStoreSample
import StateStoreTesting
import Testing

@testable import StateStore

/// The history directory's entry is made durable by the start that creates it, and only by that start.
@Suite struct HistoryDirectoryTests {
    /// The file system calls of opening the journaled state (and its history) after a load of `directory`.
    func callsOfOpening(_ directory: TemporaryDirectory) throws -> [FaultInjectingFileSystem.Call] {
        let fileSystem = FaultInjectingFileSystem()
        let file = try notebookFile(directory, fileSystem: fileSystem)
        defer { file.unlock() }
        let loaded = try file.load()
        let from = fileSystem.calls.count
        let state = try PersistentState(
            file: file, loaded: loaded, journaling: NoteChange.self, history: HistoryTests.history,
            scheduler: ManualPersistenceScheduler())
        let calls = Array(fileSystem.calls[from...])
        try state.close()
        return calls
    }

    @Test func onlyTheStartThatCreatesTheDirectoryFsyncsTheStateDirectoryForIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let history = directory.file("notebook.json.history")

        let first = try callsOfOpening(directory)
        let created = try #require(first.firstIndex { $0.operation == .create && $0.path == history }, "\(first)")
        #expect(
            first[created...].contains { $0.operation == .fsyncDirectory && $0.path == directory.path },
            "the new directory's entry was not made durable: \(first)")

        let second = try callsOfOpening(directory)
        #expect(!second.contains { $0.operation == .create && $0.path == history }, "\(second)")
        #expect(
            !second.contains { $0.operation == .fsyncDirectory && $0.path == directory.path },
            "a restart fsynced the state directory for a history directory that was there: \(second)")
        #expect(try FileManager.default.fileExists(atPath: history) && !historyNames(directory).isEmpty)
    }
}
