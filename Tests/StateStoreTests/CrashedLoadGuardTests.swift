import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Testing

/// The crash-loop guard, in process: a load that "dies" is one whose `StateFile` is dropped without
/// `finishedLoading()` (the process would have crashed, been killed or timed out before becoming ready).
@Suite("Crash-loop guard on the load")
struct CrashedLoadGuardTests {
    static func file(_ directory: TemporaryDirectory, limit: Int? = 3) throws -> StateFile<Notebook> {
        try notebookFile(directory, configuration: StateFileConfiguration(crashedLoadLimit: limit))
    }

    /// A load that begins and never finishes.
    static func dyingLoad(_ directory: TemporaryDirectory) throws -> LoadReport {
        let file = try file(directory)
        defer { file.unlock() }
        return try file.load().report
    }

    @Test func theLimitthLoadThatNeverFinishedSetsTheFileAsideAndTheNewestBackupThatLoadsServes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let crashing = try Fixtures.data("notebook/v4.json")
        try directory.write("notebook.json", crashing)
        // Backups, newest last written: an older good one, then a newer one that does not load.
        let good = try Fixtures.data("notebook/v2.json")
        try directory.write("notebook.json.v2.bak", good)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: directory.file("notebook.json.v2.bak"))
        try directory.write("notebook.json.v3.bak", "{not json")
        for attempt in 1...3 {
            let report = try Self.dyingLoad(directory)
            #expect(report.crashedLoad == nil, "attempt \(attempt) set the file aside")
            #expect(try directory.read("notebook.json") == crashing)
        }
        let file = try Self.file(directory)
        let loaded = try file.load()
        let crash = try #require(loaded.report.crashedLoad)
        #expect(crash.attempts == 3)
        #expect(crash.restoredFrom == "notebook.json.v2.bak")
        #expect(try Data(contentsOf: URL(fileURLWithPath: crash.movedTo)) == crashing, "the bytes are kept")
        #expect(crash.movedTo.hasPrefix(directory.file("notebook.json.corrupt-")))
        #expect(try directory.read("notebook.json") == good, "the backup is the state file now")
        #expect(loaded.report.storedVersion == 2 && loaded.report.migrated)
        #expect(loaded.model == (try StateCodec(schema: try NotebookSchema.make()).decode(good).model))
        #expect(loaded.report.summary.hasPrefix("state file set aside: its load never finished 3 times in a row"))
        try file.finishedLoading()
        #expect(file.crashGuardRecord().unfinishedLoads == 0)
        #expect(file.crashGuardRecord().lastCrash == crash, "check can still say what happened")
    }

    @Test func withoutABackupThatLoadsTheStateStartsEmpty() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("notebook/v4.json"))
        for _ in 1...3 { _ = try Self.dyingLoad(directory) }
        let loaded = try Self.file(directory).load()
        #expect(loaded.report.crashedLoad?.restoredFrom == nil)
        #expect(loaded.report.source == .noFile)
        #expect(loaded.model.notes.isEmpty)
    }

    @Test func aFinishedLoadResetsTheCount() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("notebook/v4.json"))
        for round in 1...4 {
            _ = try Self.dyingLoad(directory)
            _ = try Self.dyingLoad(directory)
            let file = try Self.file(directory)
            #expect(try file.load().report.crashedLoad == nil, "round \(round)")
            #expect(file.crashGuardRecord().unfinishedLoads == 3)
            try file.finishedLoading()
            #expect(file.crashGuardRecord().unfinishedLoads == 0)
            file.unlock()
        }
        #expect(try directory.names().filter { $0.contains(".corrupt-") }.isEmpty)
    }

    /// Another file at the path (a restored backup, a hand fix) starts the count again.
    @Test func aChangedFileStartsTheCountAgain() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("notebook/v4.json"))
        for _ in 1...3 { _ = try Self.dyingLoad(directory) }
        try directory.write("notebook.json", try Fixtures.data("notebook/v3.json"))
        #expect(try Self.dyingLoad(directory).crashedLoad == nil)
        #expect(try Self.file(directory).crashGuardRecord().unfinishedLoads == 1)
    }

    /// A load given up for a clean stop (SIGTERM while loading) does not count; the unfinished ones before it do.
    @Test func aLoadStoppedCleanlyDoesNotCount() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("notebook/v4.json"))
        _ = try Self.dyingLoad(directory)
        for _ in 1...5 {
            let file = try Self.file(directory)
            _ = try file.load()
            #expect(file.crashGuardRecord().unfinishedLoads == 2)
            file.stoppedWhileLoading()
            #expect(file.crashGuardRecord().unfinishedLoads == 1)
            file.stoppedWhileLoading()
            #expect(file.crashGuardRecord().unfinishedLoads == 1, "counted once, given back once")
            file.unlock()
        }
        #expect(try Self.file(directory).load().report.crashedLoad == nil)
    }

    @Test func theGuardIsOffWithoutALimit() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("notebook/v4.json"))
        for _ in 1...5 {
            let file = try Self.file(directory, limit: nil)
            #expect(try file.load().report.crashedLoad == nil)
            file.unlock()
        }
        #expect(try directory.names() == [".notebook.json.lock", "notebook.json"])
    }

    /// The record is written durably before the bytes are read: a crash in the read itself counts.
    @Test func theRecordIsDurableBeforeTheFileIsRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("notebook/v4.json"))
        let fileSystem = FaultInjectingFileSystem()
        let file = try notebookFile(
            directory, configuration: StateFileConfiguration(crashedLoadLimit: 3), fileSystem: fileSystem)
        _ = try file.load()
        let calls = fileSystem.calls
        let record = directory.file(".notebook.json.loading")
        let rename = try #require(calls.firstIndex { $0.operation == .rename && $0.path == record })
        let sync = try #require(calls.indices.first { calls[$0].operation == .fsyncDirectory && $0 > rename })
        let read = try #require(calls.firstIndex { $0.operation == .read && $0.path == file.path })
        #expect(rename < sync && sync < read)
    }

    /// After the first load the record's file stays, and a counted load overwrites it in place and flushes it
    /// (one write and one fdatasync, no new file, no rename, no directory sync) before the state file is read.
    @Test func aLaterLoadOverwritesTheRecordInPlaceBeforeTheFileIsRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("notebook/v4.json"))
        let first = try Self.file(directory)
        _ = try first.load()
        try first.finishedLoading()
        first.unlock()
        let record = directory.file(".notebook.json.loading")
        let before = try FileManager.default.attributesOfItem(atPath: record)
        #expect(before[.size] as? Int == 512)
        #expect(first.crashGuardRecord().unfinishedLoads == 0)

        let fileSystem = FaultInjectingFileSystem()
        let file = try notebookFile(
            directory, configuration: StateFileConfiguration(crashedLoadLimit: 3), fileSystem: fileSystem)
        _ = try file.load()
        let calls = fileSystem.calls
        let write = try #require(calls.firstIndex { $0.operation == .write && $0.path == record })
        let sync = try #require(calls.firstIndex { $0.operation == .fsync && $0.path == record })
        let read = try #require(calls.firstIndex { $0.operation == .read && $0.path == file.path })
        #expect(write < sync && sync < read)
        #expect(!calls.contains { $0.operation == .rename && $0.path == record })
        #expect(!calls.contains { $0.operation == .create })
        #expect(file.crashGuardRecord().unfinishedLoads == 1)
        let after = try FileManager.default.attributesOfItem(atPath: record)
        #expect(after[.systemFileNumber] as? UInt64 == before[.systemFileNumber] as? UInt64, "the same file")
        #expect(after[.size] as? Int == 512)
        try file.finishedLoading()
        file.unlock()
        #expect(file.crashGuardRecord().unfinishedLoads == 0)
        #expect(try directory.names() == [".notebook.json.loading", ".notebook.json.lock", "notebook.json"])
    }

    /// A record too short for what the guard writes (someone else's file, or one cut short) is replaced whole.
    @Test func aRecordThatDoesNotFitIsReplacedWhole() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("notebook/v4.json"))
        try directory.write(".notebook.json.loading", "{}")
        for attempt in 1...3 {
            let report = try Self.dyingLoad(directory)
            #expect(report.crashedLoad == nil, "attempt \(attempt)")
        }
        #expect(try Self.file(directory).crashGuardRecord().unfinishedLoads == 3)
        let size = try FileManager.default.attributesOfItem(atPath: directory.file(".notebook.json.loading"))[.size]
        #expect(size as? Int == 512)
    }

    /// A record torn by a power cut (here: spaces over its start) reads as none: the guard counts again.
    @Test func aTornRecordCountsAsNone() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("notebook/v4.json"))
        _ = try Self.dyingLoad(directory)
        _ = try Self.dyingLoad(directory)
        let path = directory.file(".notebook.json.loading")
        var bytes = try directory.read(".notebook.json.loading")
        #expect(try Self.file(directory).crashGuardRecord().unfinishedLoads == 2)
        bytes.replaceSubrange(0..<8, with: Data(repeating: 0x20, count: 8))
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(try Self.file(directory).crashGuardRecord().unfinishedLoads == 0)
        let report = try Self.dyingLoad(directory)
        #expect(report.crashedLoad == nil)
        #expect(try Self.file(directory).crashGuardRecord().unfinishedLoads == 1)
    }
}
