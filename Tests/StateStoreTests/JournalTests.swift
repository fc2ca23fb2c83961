import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Synchronization
import TestSupport
import Testing

/// The change journal on the real file system: what a process crash, a clean stop and a damaged journal leave,
/// and what the next start replays.
@Suite(.heavy) struct JournalTests {
    @Test func aProcessCrashLosesNoAcknowledgedChange() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var file: StateFile<Notebook>? = try notebookFile(directory)
        var state: PersistentState<Notebook>? = try openJournaled(file!)
        let lineageBefore = state!.lineage
        for index in 1...5 { try state!.apply(NoteChange.add(id: "n\(index)", title: "note \(index)")) }
        try state!.apply(NoteChange.rename(id: "n2", title: "second"))
        try state!.apply(NoteChange.remove(id: "n4"))
        #expect(state!.status.revision == 7)
        #expect(state!.status.savedRevision == 0, "no snapshot was taken: only the journal holds the changes")
        // A crash: no close, no flush, the lock released as the kernel would.
        file!.unlock()
        state = nil
        file = nil

        let reopenedFile = try notebookFile(directory)
        let reopened = try openJournaled(reopenedFile)
        let replay = try #require(reopened.journalReplay)
        #expect(replay.recordsReplayed == 7)
        #expect(replay.snapshotRevision == 0 && replay.revision == 7)
        #expect(replay.keptAside.isEmpty && replay.stopReason == nil)
        #expect(reopened.status.revision == 7, "revisions continue after the replayed ones")
        #expect(reopened.lineage != lineageBefore, "after a crash the state gets a new lineage")
        #expect(reopened.read { $0.notes.map(\.id) } == ["n1", "n2", "n3", "n5"])
        #expect(reopened.read { $0.notes[1].title } == "second")
        // The start wrote nothing: a new segment continues the replayed one under the new lineage, which stays
        // until a snapshot holds its changes.
        #expect(reopened.status.savedRevision == 0)
        #expect(try journalNames(directory) == ["notebook.json.journal.0", "notebook.json.journal.7"])
        #expect(reopened.journalStatus?.failure == nil)
        try reopened.apply(NoteChange.add(id: "n6", title: "after"))
        #expect(reopened.status.revision == 8)
        // A second crash replays both segments across the change of lineage.
        let secondLineage = reopened.lineage
        reopenedFile.unlock()
        let third = try openJournaled(try notebookFile(directory))
        #expect(third.journalReplay?.recordsReplayed == 8, "\(third.journalReplay!)")
        #expect(third.read { $0.notes.map(\.id) } == ["n1", "n2", "n3", "n5", "n6"])
        #expect(third.lineage != secondLineage)
        try third.flushSynchronously()
        #expect(try storedNotes(directory) == ["n1", "n2", "n3", "n5", "n6"])
        #expect(try journalNames(directory) == ["notebook.json.journal.8"])
    }

    @Test func segmentsLeftFromBeforeACrashAreHistoryOnceASnapshotHoldsThem() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var file: StateFile<Notebook>? = try notebookFile(directory)
        var state: PersistentState<Notebook>? = try openJournaled(file!)
        for index in 1...3 { try state!.apply(NoteChange.add(id: "n\(index)", title: "t")) }
        file!.unlock()
        state = nil
        file = nil
        let crashed = try directory.read("notebook.json.journal.0")
        let reopenedFile = try notebookFile(directory)
        let reopened = try openJournaled(reopenedFile)
        try reopened.apply(NoteChange.add(id: "n4", title: "t"))
        let relabeling = try directory.read("notebook.json.journal.3")
        try reopened.flushSynchronously()
        #expect(try journalNames(directory) == ["notebook.json.journal.4"])
        // A crash between the snapshot and the removal of the segments it holds: they are still there.
        try directory.write("notebook.json.journal.0", crashed)
        try directory.write("notebook.json.journal.3", relabeling)
        reopenedFile.unlock()
        let third = try openJournaled(try notebookFile(directory))
        let replay = try #require(third.journalReplay)
        #expect(replay.keptAside.isEmpty && replay.stopReason == nil, "\(replay)")
        #expect(replay.recordsReplayed == 0 && replay.recordsAlreadyInSnapshot == 4)
        #expect(third.read { $0.notes.map(\.id) } == ["n1", "n2", "n3", "n4"])
    }

    @Test func aCleanStopLeavesTheStateFileWholeAndTheJournalEmpty() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try notebookFile(directory)
        let state = try openJournaled(file)
        for index in 1...3 { try state.apply(NoteChange.add(id: "n\(index)", title: "t")) }
        try state.close()
        #expect(try storedNotes(directory) == ["n1", "n2", "n3"])
        #expect(try journalNames(directory) == ["notebook.json.journal.3"])
        let segment = try [UInt8](directory.read("notebook.json.journal.3"))
        let scan = JournalFraming.scan(segment)
        #expect(scan.payloads.count == 1 && scan.damage == nil, "only the header: no change is left to replay")
        let lineage = state.lineage
        file.unlock()

        let reopened = try openJournaled(try notebookFile(directory))
        #expect(reopened.journalReplay?.recordsReplayed == 0)
        #expect(reopened.lineage == lineage, "a clean stop continues its lineage")
        #expect(reopened.status.revision == 3)
        #expect(try journalNames(directory) == ["notebook.json.journal.3"])
    }

    @Test func aSnapshotDropsTheSegmentsItHolds() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try notebookFile(directory)
        let state = try openJournaled(file)
        try state.apply(NoteChange.add(id: "n1", title: "t"))
        try state.apply(NoteChange.add(id: "n2", title: "t"))
        try state.flushSynchronously()
        #expect(try journalNames(directory) == ["notebook.json.journal.2"])
        #expect(state.journalStatus?.lastCompactionDate != nil)
        try state.apply(NoteChange.add(id: "n3", title: "t"))
        #expect(state.journalStatus?.recordCount == 1)
        #expect(state.journalStatus?.segmentCount == 1)
    }

    @Test func aDurableChangeWaitsForOneSharedSyncNotASnapshot() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileSystem = FaultInjectingFileSystem()
        let file = try notebookFile(directory, fileSystem: fileSystem)
        let state = try openJournaled(file)
        let savesBefore = state.status.savesPerformed
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 1...32 {
                group.addTask {
                    let applied = try state.apply(NoteChange.add(id: "n\(index)", title: "t"))
                    try await state.waitUntilDurable(applied.revision)
                }
            }
            try await group.waitForAll()
        }
        #expect(state.status.durableRevision == 32)
        #expect(state.status.savesPerformed == savesBefore, "durability came from the journal, not a snapshot")
        let syncs = try #require(state.journalStatus?.syncsPerformed)
        #expect(syncs >= 1 && syncs <= 32)
        #expect(state.journalStatus?.syncedRevision == 32)
    }

    @Test func aClosureChangeIsRefusedOnAJournaledState() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let state = try openJournaled(try notebookFile(directory))
        #expect(throws: PersistenceError.notJournaled(path: directory.file("notebook.json"), changeType: "NoteChange"))
        {
            try state.apply { $0.notes.removeAll() }
        }
        #expect(state.status.revision == 0)
    }

    @Test func aChangeThatDoesNotApplyChangesNothingAndIsNotRecorded() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let state = try openJournaled(try notebookFile(directory))
        #expect(throws: NoteChangeError(id: "missing")) { try state.apply(NoteChange.remove(id: "missing")) }
        #expect(state.status.revision == 0)
        #expect(state.journalStatus?.recordsAppended == 0)
    }

    @Test func aFullJournalTakesASnapshotAtOnce() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let state = try openJournaled(
            try notebookFile(directory), journal: JournalConfiguration(maximumByteCount: 400))
        let saves = state.status.savesPerformed
        for index in 1...20 { try state.apply(NoteChange.add(id: "n\(index)", title: "a title of some length")) }
        _ = await eventually { state.status.savesPerformed != saves }
        #expect(state.status.savesPerformed > saves, "the manual clock never fired: only the bound can save")
    }

    @Test func theBoundFollowsTheStatesSizeBetweenItsFloorAndItsMaximum() {
        let configuration = JournalConfiguration()
        #expect(configuration.bound(stateByteCount: 0) == 6 << 20)
        #expect(configuration.bound(stateByteCount: 10_000_000) == 6 << 20)
        #expect(configuration.bound(stateByteCount: 20_000_000) == 10_000_000)
        #expect(configuration.bound(stateByteCount: 50_000_000) == 16 << 20)
        #expect(configuration.bound(stateByteCount: .max) == 16 << 20)
        // A floor above the maximum gives the maximum; no fraction gives the floor; an infinite one the maximum.
        #expect(JournalConfiguration(maximumByteCount: 400).bound(stateByteCount: 100) == 400)
        #expect(JournalConfiguration(maximumStateFraction: 0).bound(stateByteCount: 50_000_000) == 6 << 20)
        #expect(JournalConfiguration(maximumStateFraction: .infinity).bound(stateByteCount: 1) == 16 << 20)
    }

    /// A journal past its fraction of the state file's bytes takes a snapshot though its byte maximum is far, and
    /// the snapshot's size sets the next bound: a larger state lets a longer journal wait for the debounce.
    @Test func aJournalPastItsShareOfTheStateTakesASnapshot() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try notebookFile(directory)
        let journal = JournalConfiguration(maximumByteCount: 1 << 20, maximumStateFraction: 1, minimumByteCount: 0)
        let first = try openJournaled(file, journal: journal)
        // A state file of about 3 KB, then reopened so that the bound starts from the loaded file's size.
        for index in 1...30 { try first.apply(NoteChange.add(id: "n\(index)", title: "a title of some length")) }
        try first.close()
        let size = try directory.read("notebook.json").count
        let state = try openJournaled(file, journal: journal)
        let saves = state.status.savesPerformed
        // Renames up to just under the file's size: nothing is due, the manual clock never fires.
        var index = 0
        while (state.journalStatus?.byteCount ?? 0) + 120 < size {
            index += 1
            try state.apply(NoteChange.rename(id: "n1", title: "title \(index)"))
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(state.status.savesPerformed == saves)
        // Past it, a snapshot at once.
        while (state.journalStatus?.byteCount ?? 0) < size {
            index += 1
            try state.apply(NoteChange.rename(id: "n1", title: "title \(index)"))
        }
        _ = await eventually { state.status.savesPerformed != saves }
        #expect(state.status.savesPerformed == saves + 1, "the manual clock never fired: only the bound can save")
        try state.close()
    }

    /// The bytes of a journal of three changes after revision 0, for tests that damage it.
    private func journalOfThreeChanges(_ directory: TemporaryDirectory) throws -> (segment: String, bytes: [UInt8]) {
        let file = try notebookFile(directory)
        let state = try openJournaled(file)
        try state.saveSynchronously()  // the state file at revision 0, which the journal continues
        try state.apply(NoteChange.add(id: "n1", title: "one"))
        try state.apply(NoteChange.add(id: "n2", title: "two"))
        try state.apply(NoteChange.add(id: "n3", title: "three"))
        file.unlock()
        let segment = try #require(try journalNames(directory).first)
        return (segment, try [UInt8](directory.read(segment)))
    }

    @Test func aTornLastRecordIsDroppedAtEveryByteOffset() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (segment, bytes) = try journalOfThreeChanges(directory)
        let state = try directory.read("notebook.json")
        let scan = JournalFraming.scan(bytes)
        let lastStart = scan.payloads[3].lowerBound - JournalFraming.frameLength
        for cut in lastStart..<bytes.count {
            let copy = try TemporaryDirectory()
            defer { copy.remove() }
            try copy.write("notebook.json", state)
            try copy.write(segment, Data(bytes[..<cut]))
            let reopened = try openJournaled(try notebookFile(copy))
            let replay = try #require(reopened.journalReplay)
            #expect(replay.recordsReplayed == 2, "cut at \(cut)")
            #expect(replay.tornTailByteCount == cut - lastStart)
            #expect(replay.keptAside.isEmpty && replay.stopReason == nil)
            #expect(reopened.read { $0.notes.map(\.id) } == ["n1", "n2"])
        }
    }

    @Test func aJournalOfAnotherLineageIsKeptAsideUnread() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (segment, bytes) = try journalOfThreeChanges(directory)
        // The state file is replaced by one of another history (a restored copy, an import).
        let stateBytes = try directory.read("notebook.json")
        let other = String(decoding: stateBytes, as: UTF8.self)
            .replacingOccurrences(
                of: #""lineage":"[0-9a-f]+""#, with: #""lineage":"0123456789abcdef""#, options: .regularExpression)
        #expect(other != String(decoding: stateBytes, as: UTF8.self))
        try directory.write("notebook.json", other)
        let reopened = try openJournaled(try notebookFile(directory))
        let replay = try #require(reopened.journalReplay)
        #expect(replay.recordsReplayed == 0)
        #expect(replay.keptAside.count == 1)
        #expect(replay.keptAside.first?.reason.contains("lineage") == true)
        let aside = try #require(replay.keptAside.first?.movedTo)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: aside))) == bytes, "its bytes are kept as they were")
        #expect(reopened.read { $0.notes.isEmpty })
        // The start began a new segment, of the state's own lineage, under the same base.
        let restarted = try [UInt8](directory.read(segment))
        let header = JournalSegmentFormat.Header(payload: restarted[JournalFraming.scan(restarted).payloads[0]])
        #expect(header?.lineage == reopened.lineage)
    }

    @Test func aRecordThatDoesNotApplyStopsTheReplayAndIsKeptAside() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (segment, bytes) = try journalOfThreeChanges(directory)
        // Records 1 and 2 are kept; a forged record 3 removes a note that does not exist.
        let scan = JournalFraming.scan(bytes)
        var forged = Array(bytes[..<(scan.payloads[3].lowerBound - JournalFraming.frameLength)])
        let change = try JSONEncoder().encode(NoteChange.remove(id: "missing"))
        forged += JournalFraming.frame(JournalSegmentFormat.changePayload(revision: 3, change: [UInt8](change)))
        try directory.write(segment, Data(forged))
        let reopened = try openJournaled(try notebookFile(directory))
        let replay = try #require(reopened.journalReplay)
        #expect(replay.recordsReplayed == 2)
        #expect(replay.stopReason?.contains("revision 3 does not apply") == true)
        #expect(replay.keptAside.count == 1)
        #expect(reopened.read { $0.notes.map(\.id) } == ["n1", "n2"])
        #expect(reopened.status.revision == 2)
        let aside = try #require(replay.keptAside.first?.movedTo)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: aside))) == forged)
    }

    /// A segment of thousands of records is decoded in chunks on other threads while the start applies them: all of
    /// them replay in order, and a change that does not apply in a late chunk stops the replay at its revision,
    /// with the model of the records before it, as a replay record by record stops.
    @Test func aLongSegmentReplaysInChunksAndStopsWhereAChangeDoesNotApply() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try notebookFile(directory)
        let state = try openJournaled(file)
        try state.saveSynchronously()
        let count = 3000
        for index in 1...count { try state.apply(NoteChange.add(id: "n\(index)", title: "note \(index)")) }
        file.unlock()
        let segment = try #require(try journalNames(directory).first)
        let bytes = try [UInt8](directory.read(segment))
        let notebook = try directory.read("notebook.json")
        let whole = try openJournaled(try notebookFile(directory))
        #expect(whole.journalReplay?.recordsReplayed == count)
        #expect(whole.read { $0.notes.map(\.id) } == (1...count).map { "n\($0)" })
        try whole.close()
        // Record 2,500 forged to remove a note that does not exist; the records after it are whole.
        let scan = JournalFraming.scan(bytes)
        var forged = Array(bytes[..<(scan.payloads[2500].lowerBound - JournalFraming.frameLength)])
        let change = try JSONEncoder().encode(NoteChange.remove(id: "missing"))
        forged += JournalFraming.frame(JournalSegmentFormat.changePayload(revision: 2500, change: [UInt8](change)))
        forged += bytes[scan.payloads[2501].lowerBound - JournalFraming.frameLength..<bytes.count]
        let copy = try TemporaryDirectory()
        defer { copy.remove() }
        try copy.write("notebook.json", notebook)
        try copy.write(segment, Data(forged))
        let reopened = try openJournaled(try notebookFile(copy))
        let replay = try #require(reopened.journalReplay)
        #expect(replay.recordsReplayed == 2499)
        #expect(replay.stopReason?.contains("revision 2500 does not apply") == true)
        #expect(reopened.read { $0.notes.map(\.id) } == (1...2499).map { "n\($0)" })
        #expect(reopened.status.revision == 2499)
    }

    @Test func aDamagedRecordBeforeTheEndStopsTheReplay() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (segment, bytes) = try journalOfThreeChanges(directory)
        var damaged = bytes
        let scan = JournalFraming.scan(bytes)
        damaged[scan.payloads[2].lowerBound + 9] ^= 0x20  // inside record 2's change
        try directory.write(segment, Data(damaged))
        let reopened = try openJournaled(try notebookFile(directory))
        let replay = try #require(reopened.journalReplay)
        #expect(replay.recordsReplayed == 1)
        #expect(replay.stopReason?.contains("checksum") == true)
        #expect(replay.keptAside.count == 1)
    }

    @Test func anAppendThatFailsIsNotAcknowledgedAndASnapshotResumesTheJournal() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileSystem = FaultInjectingFileSystem()
        let file = try notebookFile(directory, fileSystem: fileSystem)
        let events = Mutex<[PersistenceEvent]>([])
        let state = try PersistentState(
            file: file, loaded: try file.load(), journaling: NoteChange.self,
            scheduler: ManualPersistenceScheduler(),
            observer: { event in if case .saved = event {} else { events.withLock { $0.append(event) } } })
        try state.apply(NoteChange.add(id: "n1", title: "t"))
        fileSystem.inject(.write, errno: ENOSPC)
        #expect {
            try state.apply(NoteChange.add(id: "n2", title: "t"))
        } throws: { error in
            guard case .journalFailed(_, let revision, _) = error as? PersistenceError else { return false }
            return revision == 2
        }
        #expect(state.read { $0.notes.map(\.id) } == ["n1", "n2"], "the change is applied, saved with the snapshot")
        // The failure made a snapshot due at once; once it is durable, changes are acknowledged again.
        _ = await eventually { state.journalStatus?.failure == nil }
        #expect(state.journalStatus?.failure == nil)
        #expect(state.status.savedRevision >= 2)
        // The observer was told of the failure, then, once, that the journal works again (told by the save's thread
        // after the status changed, so it may come a little later).
        _ = await eventually { events.withLock { $0.count } >= 2 }
        let told = events.withLock { $0 }
        #expect(told.count == 2, "\(told)")
        guard case .journalFailed(.journalFailed(_, 2, _)) = told.first else {
            Issue.record("not a journal failure at revision 2: \(told)")
            return
        }
        guard case .journalResumed(let resumedAt) = told.last, resumedAt >= 2 else {
            Issue.record("not a resumption at 2 or later: \(told)")
            return
        }
        try state.apply(NoteChange.add(id: "n3", title: "t"))
        file.unlock()
        let reopened = try openJournaled(try notebookFile(directory))
        #expect(reopened.read { $0.notes.map(\.id) } == ["n1", "n2", "n3"])
    }

    /// A start that does not continue the file (here a corrupt file quarantined) writes the state first and only
    /// then records changes; nothing failed, so the observer hears of no journal failure and no resumption.
    @Test func aStartThatWritesTheStateFirstTellsOfNoJournalFailure() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try notebookFile(directory, configuration: StateFileConfiguration(corruptFilePolicy: .quarantine))
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: file.path))
        let events = Mutex<[PersistenceEvent]>([])
        let loaded = try file.load()
        #expect(loaded.report.quarantine != nil)
        let state = try PersistentState(
            file: file, loaded: loaded, journaling: NoteChange.self, scheduler: ManualPersistenceScheduler(),
            observer: { event in if case .saved = event {} else { events.withLock { $0.append(event) } } })
        #expect(state.journalStatus?.failure == nil)
        try state.apply(NoteChange.add(id: "n1", title: "t"))
        #expect(events.withLock { $0 }.isEmpty, "\(events.withLock { $0 })")
    }

    @Test func aJournalLeftByAnOlderVersionReplaysOntoTheMigratedState() throws {
        for version in 1...4 {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            var text = String(decoding: try Fixtures.data("notebook/v\(version).json"), as: UTF8.self)
            // The previous release stamped its file with a revision and a lineage, and its journal continues them.
            text = text.replacingOccurrences(
                of: "{", with: #"{"revision":5,"lineage":"00000000000000aa","#, options: [], range: text.range(of: "{"))
            try directory.write("notebook.json", text)
            let header = JournalSegmentFormat.Header(lineage: Lineage(rawValue: "00000000000000aa")!, baseRevision: 5)
            var segment = JournalFraming.frame(header.payload)
            for (offset, change) in [NoteChange.add(id: "j1", title: "journal"), .rename(id: "n1", title: "renamed")]
                .enumerated()
            {
                let encoded = [UInt8](try JSONEncoder().encode(change))
                segment += JournalFraming.frame(
                    JournalSegmentFormat.changePayload(revision: 6 + UInt64(offset), change: encoded))
            }
            try directory.write("notebook.json.journal.5", Data(segment))
            let state = try openJournaled(try notebookFile(directory))
            let replay = try #require(state.journalReplay)
            #expect(replay.recordsReplayed == 2, "from version \(version): \(replay)")
            #expect(state.read { $0.notes.map(\.id) } == ["n1", "n2", "j1"], "from version \(version)")
            #expect(state.read { $0.notes[0].title } == "renamed")
            #expect(state.status.revision == 7)
        }
    }

    private func storedNotes(_ directory: TemporaryDirectory) throws -> [String] {
        let codec = StateCodec(schema: try NotebookSchema.make())
        return try codec.decode(directory.read("notebook.json")).model.notes.map(\.id)
    }
}
