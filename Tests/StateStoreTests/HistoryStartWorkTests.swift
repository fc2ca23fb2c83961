import Foundation
import StateStoreSample
import StateStoreTesting
import Testing

@testable import StateStore

/// A start leaves the history's durable steps (its directory, the snapshot of the file it loaded) for after it: the
/// save queue makes them once the start returned, and a save or a read of the history that comes first makes them
/// itself, before the save replaces the file the snapshot links.
@Suite struct HistoryStartWorkTests {
    /// A state file at revision 3 with a journal and no history directory (a run with history off); returns its
    /// bytes.
    func runWithoutHistory(_ directory: TemporaryDirectory) throws -> Data {
        let file = try notebookFile(directory)
        defer { file.unlock() }
        let state = try openJournaled(file)
        try state.saveSynchronously()
        for index in 1...3 { try state.apply(NoteChange.add(id: "n\(index)", title: "note \(index)")) }
        try state.close()
        return try Data(contentsOf: URL(fileURLWithPath: directory.file("notebook.json")))
    }

    /// The history of a state file at revision 3 with no history directory, opened as a start opens it and told
    /// to keep the file as its snapshot (in a lineage of its own); returns it and that lineage.
    func archiveKeepingTheStartingSnapshot(_ directory: TemporaryDirectory) throws -> (HistoryArchive, String) {
        _ = try runWithoutHistory(directory)
        let archive = HistoryArchive(
            stateFilePath: directory.file("notebook.json"), stateDirectory: directory.path,
            stateFileName: "notebook.json", fileSystem: PosixFileSystem(), configuration: HistoryTests.history,
            journalMaximumByteCount: JournalConfiguration().maximumByteCount, fileMode: 0o600)
        archive.open()
        let lineage = Lineage.random().rawValue
        archive.keepStartingSnapshot(
            stateFile: directory.file("notebook.json"), revision: 3, storedLineage: lineage, chainLineage: lineage,
            decodesAsHeld: true)
        return (archive, lineage)
    }

    /// The calls made after the start returned, as "operation path".
    func callsAfterTheStart(_ calls: HistoryAdoptedManifestTests.ThreadedCalls) -> [String] {
        calls.elsewhere.withLock { $0.map { "\($0.operation) \($0.path)" } }
    }

    @Test func aFirstStartCreatesTheDirectoryAndLinksTheFileAfterItReturns() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes = try runWithoutHistory(directory)
        let history = directory.file("notebook.json.history")
        let (calls, file, state) = try HistoryAdoptedManifestTests().start(directory)
        defer { file.unlock() }
        let onTheStart = calls.onTheStart.withLock { $0 }
        #expect(
            !onTheStart.contains { $0.operation == .link || $0.operation == .fsyncDirectory },
            "\(onTheStart.map { "\($0.operation) \($0.path)" })")

        state.saveQueue.sync {}  // the work queued after the start has run
        let after = callsAfterTheStart(calls)
        let stateDirectorySync = try #require(after.firstIndex(of: "fsyncDirectory \(directory.path)"), "\(after)")
        let link = try #require(after.firstIndex { $0.hasPrefix("link ") && $0.contains("snapshot.3.") }, "\(after)")
        let historySync = try #require(after.firstIndex(of: "fsyncDirectory \(history)"), "\(after)")
        #expect(stateDirectorySync < link && link < historySync, "\(after)")
        let kept = try #require(try historyNames(directory).first { $0.hasPrefix("snapshot.3.") })
        #expect(try Data(contentsOf: URL(fileURLWithPath: history + "/" + kept)) == bytes)
        try state.close()
    }

    /// A save made right after the start, on the caller's thread (a flush), finds the snapshot linked first: the
    /// link names the file the start loaded, not the one the save writes, whichever of the two made it.
    @Test func aSaveRightAfterTheStartLinksTheFileItReplacesFirst() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes = try runWithoutHistory(directory)
        let (calls, file, state) = try HistoryAdoptedManifestTests().start(directory)
        defer { file.unlock() }
        try state.apply(NoteChange.add(id: "n4", title: "after the start"))
        try state.flushSynchronously()
        state.saveQueue.sync {}
        let after = callsAfterTheStart(calls)
        let link = try #require(after.firstIndex { $0.hasPrefix("link ") && $0.contains("snapshot.3.") }, "\(after)")
        let replace = try #require(
            after.firstIndex { $0.hasPrefix("rename ") && $0.hasSuffix(" \(directory.file("notebook.json"))") },
            "\(after)")
        #expect(link < replace, "\(after)")
        let kept = try #require(try historyNames(directory).first { $0.hasPrefix("snapshot.3.") })
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file("notebook.json.history/" + kept))) == bytes)
        #expect(try state.model(atRevision: 3).notes.map(\.id) == ["n1", "n2", "n3"])
        try state.close()
    }

    /// A read of the history (its status) makes the steps itself when it comes before the save queue's work.
    @Test func aReadOfTheHistoryMakesTheStepsFirst() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (archive, lineage) = try archiveKeepingTheStartingSnapshot(directory)
        #expect(!FileManager.default.fileExists(atPath: archive.directory), "the open created the directory")
        let status = archive.status(lineage: lineage)
        #expect(status.snapshotCount == 1 && status.oldestRevision == 3, "\(status)")
        #expect(try historyNames(directory) == [HistoryFormat.snapshotName(revision: 3, lineage: lineage)])
    }

    /// After a stop (``HistoryArchive/close()``) the steps are not made: the state file was not replaced since the
    /// start, so the next start finds what this one found and makes them itself.
    @Test func aStopBeforeTheStepsLeavesThemToTheNextStart() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (archive, _) = try archiveKeepingTheStartingSnapshot(directory)
        archive.close()
        archive.finishStart()
        archive.describeStartingSnapshot()
        #expect(!FileManager.default.fileExists(atPath: archive.directory))

        let file = try notebookFile(directory)
        defer { file.unlock() }
        let state = try openJournaled(file, history: HistoryTests.history)
        let status = try #require(state.historyStatus)
        #expect(status.snapshotCount == 1 && status.oldestRevision == 3 && status.damaged.isEmpty, "\(status)")
        #expect(try state.model(atRevision: 3).notes.map(\.id) == ["n1", "n2", "n3"])
        try state.close()
    }
}
