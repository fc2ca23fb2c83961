import Foundation
import Glibc
import StateStore
import StateStoreSample
import StateStoreTesting
import TestSupport
import Testing

@Suite("Revisions and lineages: a (lineage, revision) pair names one state forever")
struct RevisionLineageTests {
    /// A state file in `directory` and its persistent owner, on the real file system with a manual clock.
    struct Owner {
        let file: StateFile<Notebook>
        let loaded: LoadedState<Notebook>
        let state: PersistentState<Notebook>
        let scheduler: ManualPersistenceScheduler

        init(_ directory: TemporaryDirectory, policy: CorruptFilePolicy = .salvage) throws {
            file = try notebookFile(directory, configuration: StateFileConfiguration(corruptFilePolicy: policy))
            loaded = try file.load()
            scheduler = ManualPersistenceScheduler()
            state = PersistentState(file: file, loaded: loaded, scheduler: scheduler)
        }

        @discardableResult
        func add(_ id: String) throws -> UInt64 {
            try state.apply { $0.notes.append(Note(id: id, title: id, kind: .text, tags: [])) }.revision
        }

        /// Ends this owner as a crash would: the lock goes with the process, nothing else is written.
        func crash() { file.unlock() }

        /// Ends this owner as SIGTERM does: close (flush and the clean-stop marker), then the lock goes.
        func stop() throws {
            try state.close()
            file.unlock()
        }
    }

    /// The revision and lineage stored at the root of the file.
    static func stamp(_ directory: TemporaryDirectory) throws -> (revision: UInt64?, lineage: String?) {
        let root = try jsonObject(directory.read("notebook.json"))
        return ((root["revision"] as? NSNumber)?.uint64Value, root["lineage"] as? String)
    }

    @Test func aCleanStopAndARestartContinueTheLineageAndTheRevisions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try Owner(directory)
        #expect(first.loaded.report.lineageBreak == .noFile)
        #expect(try first.add("a") == 1)
        #expect(try first.add("b") == 2)
        #expect(try first.add("c") == 3)
        let lineage = first.state.lineage
        try first.stop()
        #expect(try Self.stamp(directory) == (3, lineage.rawValue))

        let second = try Owner(directory)
        #expect(second.loaded.report.lineageBreak == nil)
        #expect(second.loaded.report.lineage == lineage)
        #expect(second.loaded.report.revision == 3)
        #expect(second.state.lineage == lineage)
        #expect(second.state.status.revision == 3 && second.state.status.durableRevision == 3)
        #expect(try second.add("d") == 4, "the next change continues the stored revision")
        try second.stop()
    }

    @Test func aCrashStartsANewLineageAndKeepsCountingRevisions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try Owner(directory)
        try first.add("a")
        try first.state.flushSynchronously()
        try first.add("b")  // acknowledged, never saved: revision 2 of this lineage is lost with the crash
        let lineage = first.state.lineage
        first.crash()

        let second = try Owner(directory)
        #expect(second.loaded.report.lineageBreak == .uncleanStop)
        #expect(second.state.lineage != lineage)
        #expect(second.loaded.report.revision == 1)
        #expect(try second.add("c") == 2, "revision 2 again, but of another lineage: the pair never repeats")
        try second.stop()
    }

    /// The next owner overwrites the marker in place (its pid, then spaces: same file, same size) and makes that
    /// durable before it hands out a revision, so that its own crash is never read as the clean stop before it.
    @Test func theNextOwnerClearsTheMarkerInPlaceAndItsCrashIsUnclean() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try Owner(directory)
        try first.add("a")
        try first.stop()
        let lockPath = directory.file(".notebook.json.lock")
        let marked = try directory.read(".notebook.json.lock")
        #expect(String(decoding: marked, as: UTF8.self).contains("\nclosed "))
        let inode = try FileManager.default.attributesOfItem(atPath: lockPath)[.systemFileNumber] as? UInt64

        let second = try Owner(directory)
        #expect(second.loaded.report.lineageBreak == nil)
        let owner = "\(getpid())\n"
        #expect(
            try directory.read(".notebook.json.lock")
                == Data((owner + String(repeating: " ", count: marked.count - owner.utf8.count)).utf8))
        #expect(try FileManager.default.attributesOfItem(atPath: lockPath)[.systemFileNumber] as? UInt64 == inode)
        try second.add("b")
        second.crash()

        let third = try Owner(directory)
        #expect(third.loaded.report.lineageBreak == .uncleanStop)
        try third.stop()
    }

    /// A marker that cannot be cleared durably stops the load: handing out revisions over it could repeat a pair.
    @Test func aMarkerThatCannotBeClearedFailsTheLoad() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Owner(directory).stop()
        let fileSystem = FaultInjectingFileSystem()
        fileSystem.inject(.fsync, errno: EIO)
        #expect {
            try notebookFile(directory, fileSystem: fileSystem).load()
        } throws: { error in
            guard case .lockFailed(let cause) = error as? StateStoreError else { return false }
            return cause.operation == "fdatasync" && cause.path.hasSuffix(".notebook.json.lock")
        }
        #expect(String(decoding: try directory.read(".notebook.json.lock"), as: UTF8.self).contains("\nclosed "))
        let reloaded = try notebookFile(directory).load()
        #expect(reloaded.report.lineageBreak == nil, "the marker still stands, and nothing was handed out over it")
    }

    @Test func aStopWhoseFlushFailsIsNotAClean() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileSystem = FaultInjectingFileSystem()
        let file = try notebookFile(directory, fileSystem: fileSystem)
        let state = PersistentState(file: file, loaded: try file.load(), scheduler: ManualPersistenceScheduler())
        try state.apply { $0.notes.append(Note(id: "a", title: "a", kind: .text, tags: [])) }
        let lineage = state.lineage
        fileSystem.inject(.fsync, errno: EIO, repeating: true)
        #expect(throws: PersistenceError.self) { try state.close() }
        file.unlock()
        let reloaded = try notebookFile(directory).load()
        #expect(reloaded.report.lineage != lineage)
    }

    @Test func everySavePathStampsTheRevisionAndTheLineage() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let owner = try Owner(directory)
        let lineage = owner.state.lineage.rawValue
        // The background save, after the debounce.
        try owner.add("a")
        owner.scheduler.advance(by: .seconds(10))
        await waitUntilSaved(owner.state, revision: 1)
        #expect(try Self.stamp(directory) == (1, lineage))
        // A durable acknowledgement.
        let revision = try owner.add("b")
        owner.state.saveSoon()
        try await owner.state.waitUntilDurable(revision, timeout: .seconds(10))
        #expect(try Self.stamp(directory) == (2, lineage))
        // The synchronous flush.
        try owner.add("c")
        try owner.state.flushSynchronously()
        #expect(try Self.stamp(directory) == (3, lineage))
        // A save through the file itself (a migration's first save): the revision the file holds.
        try owner.file.save(owner.state.snapshot.model)
        #expect(try Self.stamp(directory) == (3, lineage))
        try owner.stop()
    }

    @Test func aMigrationKeepsTheLineageAndRevisionOfTheFileItMigrates() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("notebook/v4.json"))
        let first = try Owner(directory)
        try first.add("a")
        try first.stop()
        let lineage = first.state.lineage
        // Written down as an older release would have it: version 1 with the stamp carried along.
        var root = try jsonObject(directory.read("notebook.json"))
        let v1 = try jsonObject(Fixtures.data("notebook/v1.json"))
        root = v1.merging(["revision": root["revision"]!, "lineage": root["lineage"]!]) { $1 }
        try directory.write("notebook.json", try JSONSerialization.data(withJSONObject: root))
        let second = try Owner(directory)
        #expect(second.loaded.report.migrated)
        #expect(second.loaded.report.revision == 1)
        #expect(second.loaded.report.lineageBreak == .changedSinceStop, "the file was rewritten after the stop")
        #expect(second.state.lineage != lineage)
        try second.file.save(second.loaded.model)
        #expect(try Self.stamp(directory) == (1, second.state.lineage.rawValue))
        try second.stop()
    }

    @Test(arguments: ["notebook/v1.json", "notebook/v2.json", "notebook/v3.json", "notebook/v4.json"])
    func everyOldFixtureLoadsAtRevisionZeroWithANewLineage(fixture: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data(fixture))
        let owner = try Owner(directory)
        #expect(owner.loaded.report.revision == 0)
        #expect(owner.loaded.report.lineageBreak == .notStored)
        #expect(owner.loaded.report.unknownKeysKept["revision"] == nil)
        #expect(owner.loaded.report.unknownKeysKept["lineage"] == nil)
        #expect(try owner.add("x") == 1)
        try owner.stop()
        #expect(try Self.stamp(directory) == (1, owner.state.lineage.rawValue))
    }

    @Test func aFileReplacedOrEditedAfterACleanStopGetsANewLineage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try Owner(directory)
        try first.add("a")
        try first.stop()
        let kept = try directory.read("notebook.json")  // a backup of revision 1
        let second = try Owner(directory)
        try second.add("b")
        try second.stop()
        let lineage = second.state.lineage
        #expect(first.state.lineage == lineage)

        // Restored: the backup's bytes put back in place while nobody held the file.
        try directory.write("notebook.json", kept)
        let restored = try Owner(directory)
        #expect(restored.loaded.report.lineageBreak == .changedSinceStop)
        #expect(restored.state.lineage != lineage)
        #expect(restored.loaded.report.revision == 1)
        try restored.stop()

        // Edited by hand: same lineage and revision in the text, other content.
        var root = try jsonObject(directory.read("notebook.json"))
        root["notes"] = []
        try directory.write("notebook.json", try JSONSerialization.data(withJSONObject: root))
        let edited = try Owner(directory)
        #expect(edited.loaded.report.lineageBreak == .changedSinceStop)
        #expect(edited.state.lineage != restored.state.lineage)
        try edited.stop()
    }

    @Test func aStateThatWasNeverSavedKeepsItsLineageAcrossACleanStop() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try Owner(directory)
        try first.stop()
        #expect(!FileManager.default.fileExists(atPath: directory.file("notebook.json")))
        let second = try Owner(directory)
        #expect(second.loaded.report.lineageBreak == nil)
        #expect(second.state.lineage == first.state.lineage)
        try second.stop()
        try FileManager.default.removeItem(atPath: directory.file(".notebook.json.lock"))
        let third = try Owner(directory)
        #expect(third.loaded.report.lineageBreak == .noFile)
        #expect(third.state.lineage != first.state.lineage)
        try third.stop()
    }

    @Test func quarantineAndSalvageStartNewLineages() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try Owner(directory)
        try first.add("a")
        try first.stop()
        let lineage = first.state.lineage
        // A record the strict decode refuses: salvaged, with a new lineage.
        var root = try jsonObject(directory.read("notebook.json"))
        var notes = root["notes"] as! [[String: Any]]
        notes.append(["id": "bad", "title": ["not", "a", "title"], "kind": "text", "tags": []])
        root["notes"] = notes
        try directory.write("notebook.json", try JSONSerialization.data(withJSONObject: root))
        let salvaged = try Owner(directory)
        #expect(salvaged.loaded.report.source == .salvaged, "\(salvaged.loaded.report.quarantine?.reason ?? "")")
        #expect(salvaged.loaded.report.lineageBreak == .salvaged)
        #expect(salvaged.state.lineage != lineage)
        #expect(salvaged.loaded.report.revision == 1)
        try salvaged.stop()
        // Not JSON at all: moved aside, a new empty state of a new lineage.
        try directory.write("notebook.json", "{ not json")
        let quarantined = try Owner(directory)
        #expect(quarantined.loaded.report.source == .quarantined)
        #expect(quarantined.loaded.report.lineageBreak == .quarantined)
        #expect(quarantined.state.lineage != salvaged.state.lineage)
        #expect(quarantined.loaded.report.revision == 0)
        try quarantined.stop()
    }

    @Test func anImportStartsANewLineage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("legacy.json", try Fixtures.data("notebook/v2.json"))
        let file = try notebookFile(directory)
        let source = StateImport(sourcePath: directory.file("legacy.json"), markerPath: directory.file("imported"))
        let loaded = try file.load(importing: source)
        #expect(loaded.report.source == .imported)
        #expect(loaded.report.lineageBreak == .imported)
        #expect(try Self.stamp(directory) == (0, loaded.report.lineage.rawValue))
        file.unlock()
    }

    @Test(arguments: [
        (#""revision": "seven""#, "the revision key \"revision\" holds no revision number"),
        (#""revision": -1"#, "the revision key \"revision\" holds no revision number"),
        (#""lineage": 12"#, "the lineage key \"lineage\" holds no string"),
        (#""lineage": "has space""#, "the lineage \"has space\" is not a lineage"),
    ])
    func anUnreadableStampIsIgnoredWithAWarningAndStartsANewLineage(field: String, warning: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let text = String(decoding: try Fixtures.data("notebook/v4.json"), as: UTF8.self)
            .replacingOccurrences(of: #""version": 4"#, with: #""version": 4, "# + field)
        try directory.write("notebook.json", text)
        let loaded = try notebookFile(directory).load()
        #expect(loaded.report.source == .file)
        #expect(loaded.report.warnings == [warning])
        #expect(loaded.report.lineageBreak == .notStored)
        #expect(loaded.report.revision == 0)
    }

    @Test func theLockFileStillNamesItsHolderAfterACleanStop() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try Owner(directory)
        try first.state.close()
        let text = String(decoding: try directory.read(".notebook.json.lock"), as: UTF8.self)
        #expect(text.hasPrefix("\(getpid())\nclosed \(first.state.lineage) 0 - -"), "\(text)")
        #expect {
            try notebookFile(directory).load()
        } throws: { error in
            guard case .locked(_, let holder) = error as? StateStoreError else { return false }
            return holder == "\(getpid())"
        }
        first.file.unlock()
    }

    @Test func generatedLineagesAreSixteenHexDigitsAndDiffer() {
        let lineages = (0..<100).map { _ in Lineage.random() }
        #expect(Set(lineages).count == 100)
        #expect(lineages.allSatisfy { $0.rawValue.count == 16 && $0.rawValue.allSatisfy(\.isHexDigit) })
        #expect(Lineage(rawValue: "") == nil)
        #expect(Lineage(rawValue: "a.b") == nil)
        #expect(Lineage(rawValue: String(repeating: "a", count: 65)) == nil)
        #expect(Lineage(rawValue: "Hand-made_1")?.rawValue == "Hand-made_1")
    }
}

/// Waits (bounded) until `revision` is durable.
private func waitUntilSaved(_ state: PersistentState<Notebook>, revision: UInt64) async {
    _ = await eventually { state.status.durableRevision >= revision }
}

@Suite("The fixture verifier checks the revision and lineage keys")
struct FixtureStampTests {
    /// A model whose root declares `revision` itself.
    struct Counter: Codable, Sendable, Equatable {
        var revision: Int
    }

    @Test func aModelWhoseRootDeclaresTheRevisionKeyFailsVerification() throws {
        let fixture = Data(#"{"version": 1, "revision": 3}"#.utf8)
        let clashing = try StateSchema<Counter>(currentVersion: 1, initial: { Counter(revision: 0) })
        #expect {
            try FixtureVerifier(schema: clashing).verify(fixture, name: "counter.json")
        } throws: { error in
            (error as? FixtureFailure)?.check == "revision"
        }
        let apart = try StateSchema<Counter>(
            currentVersion: 1, revisionKey: "stateRevision", lineageKey: "stateLineage",
            initial: { Counter(revision: 0) })
        let result = try FixtureVerifier(schema: apart).verify(fixture, name: "counter.json")
        #expect(result.decoded.model == Counter(revision: 3))
    }
}
