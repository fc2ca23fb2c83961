import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import TestSupport
import Testing

/// History at every crash point, on ``PowerLossFileSystem``: compaction moving segments into the history, the
/// snapshots it keeps, the manifest's rewrite and pruning, with the power cut before each mutating call in turn.
/// Every disk the machine may come back with starts, and its history reads back every revision from the oldest it
/// reports to the current one, each equal to what the workload had at that revision.
@Suite(.heavy) struct HistoryCrashPointTests {
    static let path = "/sim/notebook.json"
    /// Snapshots every 200 bytes of segments and a retention of a minute, so that the workload prunes.
    static let history = HistoryConfiguration(keepSeconds: 60, maximumByteCount: 1 << 20)
    static let journal = JournalConfiguration(maximumByteCount: 200)

    func file(_ fileSystem: PowerLossFileSystem) throws -> StateFile<Notebook> {
        StateFile(path: Self.path, schema: try NotebookSchema.make(), fileSystem: fileSystem, now: fixedNow)
    }

    func open(
        _ fileSystem: PowerLossFileSystem, _ scheduler: ManualPersistenceScheduler
    ) throws
        -> PersistentState<Notebook>
    {
        try openJournaled(
            try file(fileSystem), scheduler: scheduler, journal: Self.journal, history: Self.history)
    }

    /// Twelve additions with a snapshot after every third, and two minutes between the sixth and the seventh, so
    /// that the first generations fall out of the retention; then a clean stop.
    func workload(_ fileSystem: PowerLossFileSystem) {
        let scheduler = ManualPersistenceScheduler()
        guard let state = try? open(fileSystem, scheduler) else { return }
        _ = try? state.saveSynchronously()
        for index in 1...12 {
            _ = try? state.apply(NoteChange.add(id: "n\(index)", title: "note \(index)"))
            scheduler.advance(by: index == 6 ? .seconds(120) : .milliseconds(10))
            if index % 3 == 0 { _ = try? state.flushSynchronously() }
        }
        _ = try? state.close()
    }

    @Test func everyCrashPointLeavesAHistoryThatReadsToWhereItStops() throws {
        let clean = PowerLossFileSystem()
        workload(clean)
        let calls = clean.mutatingCalls
        #expect(calls > 40)
        var disksChecked = 0
        var revisionsRead = 0
        for crashPoint in 0...calls {
            let fileSystem = PowerLossFileSystem()
            fileSystem.crash(beforeCall: crashPoint)
            workload(fileSystem)
            for disk in fileSystem.disksAfterCrash() {
                let context = "crash before call \(crashPoint), \(disk)"
                let restarted = PowerLossFileSystem(files: disk.files)
                let state: PersistentState<Notebook>
                do {
                    state = try open(restarted, ManualPersistenceScheduler())
                } catch {
                    Issue.record("does not start: \(error); \(context)")
                    continue
                }
                let current = state.status.revision
                let status = try #require(state.historyStatus)
                #expect(status.damaged.isEmpty, "\(status.damaged); \(context)")
                for revision in (status.oldestRevision ?? current)...current {
                    do {
                        let notes = try state.model(atRevision: revision).notes.map(\.id)
                        #expect(notes == (0..<Int(revision)).map { "n\($0 + 1)" }, "revision \(revision); \(context)")
                        revisionsRead += 1
                    } catch {
                        Issue.record("revision \(revision) does not read: \(error); \(context)")
                    }
                }
                disksChecked += 1
            }
        }
        #expect(disksChecked == (calls + 1) * 6)
        #expect(revisionsRead > disksChecked)
    }
}
