import Foundation
import StateStoreSample
import StateStoreTesting
import Testing

@testable import StateStore

/// A read of the past reads its files after the history's lock is released (`HistoryArchive.beginPastRead`):
/// pruning meanwhile drops them from the manifest but leaves them on disk until the last read ends.
@Suite struct HistoryPastReadTests {
    @Test func pruningDuringAReadOfThePastUnlinksItsFilesWhenTheReadEnds() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scheduler = ManualPersistenceScheduler()
        let state = try openJournaled(
            try notebookFile(directory), scheduler: scheduler, journal: JournalConfiguration(maximumByteCount: 1024),
            history: HistoryConfiguration(keepSeconds: 60, maximumByteCount: 1 << 20))
        try state.saveSynchronously()
        let expected = try HistoryTests().work(state, scheduler: scheduler, from: 1, count: 60)
        let history = try #require(state.history)
        let plan = history.beginPastRead(lineage: state.lineage.rawValue, atOrBefore: 20)
        let snapshot = try #require(plan.snapshot)
        let chosen = [snapshot.name] + plan.segments.map(\.record.name)
        #expect(!plan.segments.isEmpty)

        // An hour later, the next saves prune the generations past the retention, the plan's among them. (The first
        // generation's times come from the wall clock, not the test's scheduler: it stays.)
        scheduler.advance(by: .seconds(3600))
        _ = try HistoryTests().work(state, scheduler: scheduler, from: 61, count: 3)
        let oldest = try #require(state.historyStatus?.oldestRevision)
        #expect(oldest > 20)
        #expect(Set(try historyNames(directory)).isSuperset(of: chosen))

        // The read goes on with every file it chose and gives the state at revision 20.
        let segments = try history.readSegments(plan)
        #expect(segments.count == plan.segments.count + plan.live.count)
        var model = try state.file.decodeStored(try history.readSnapshot(snapshot).data, path: snapshot.name).model
        _ = try HistoryArchive.walk(
            HistoryReadSet(segments: segments), from: snapshot.firstRevision, through: 20
        ) { record throws(HistoryError) in
            var session = JournalChangeReader<NoteChange>.Session(JournalChangeReader())
            do {
                try session.read(record.change).apply(to: &model)
            } catch {
                throw .damaged(path: record.path, reason: "\(error)")
            }
            return true
        }
        #expect(HistoryTests().titles(model) == expected[20])

        history.endPastRead()
        let left = try historyNames(directory)
        #expect(Set(left).isDisjoint(with: chosen), "\(left) \(chosen) oldest \(oldest)")
    }

    @Test func everyReadOfThePastEndsWhateverItGives() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scheduler = ManualPersistenceScheduler()
        let state = try openJournaled(
            try notebookFile(directory), scheduler: scheduler, journal: JournalConfiguration(maximumByteCount: 1024),
            history: HistoryTests.history)
        try state.saveSynchronously()
        _ = try HistoryTests().work(state, scheduler: scheduler, from: 1, count: 20)
        let history = try #require(state.history)
        _ = try state.model(atRevision: 3)
        #expect(throws: HistoryError.notReached(revision: 99, currentRevision: state.status.revision)) {
            try state.model(atRevision: 99)
        }
        #expect(history.state.withLock { $0.pastReads } == 0)
    }
}
