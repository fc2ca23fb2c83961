import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Synchronization
import Testing

/// The change journal at every crash point, on ``PowerLossFileSystem``: a start, appends, group syncs, a snapshot
/// with its compaction and a clean stop, with the power cut before each mutating call in turn. Every disk the
/// machine may come back with loads and replays, and holds every change acknowledged durable before the cut; the
/// disk a process crash leaves (every name and byte as written) holds every change acknowledged at all.
@Suite struct JournalCrashPointTests {
    static let path = "/sim/notebook.json"

    /// What the workload saw acknowledged before the crash.
    struct Acknowledged {
        /// Notes whose `apply` returned.
        var applied: [String] = []
        /// Notes known durable: a wait, a flush or the close returned.
        var durable: [String] = []
        var closed = false
    }

    func file(_ fileSystem: PowerLossFileSystem) throws -> StateFile<Notebook> {
        StateFile(path: Self.path, schema: try NotebookSchema.make(), fileSystem: fileSystem, now: fixedNow)
    }

    /// Six changes: durable waits after the 2nd and 5th, a snapshot after the 3rd, then a clean stop.
    func workload(_ fileSystem: PowerLossFileSystem) async -> Acknowledged {
        var seen = Acknowledged()
        guard let file = try? file(fileSystem), let state = try? openJournaled(file) else { return seen }
        for index in 1...6 {
            let id = "n\(index)"
            guard let applied = try? state.apply(NoteChange.add(id: id, title: "note \(index)")) else { continue }
            seen.applied.append(id)
            if index == 2 || index == 5,
                (try? await state.waitUntilDurable(applied.revision, timeout: .seconds(10))) != nil
            {
                seen.durable = seen.applied
            }
            if index == 3, (try? state.flushSynchronously()) != nil { seen.durable = seen.applied }
        }
        if (try? state.close()) != nil, !state.status.isDirty {
            seen.durable = seen.applied
            seen.closed = true
        }
        return seen
    }

    @Test func everyCrashPointKeepsEveryAcknowledgedChange() async throws {
        let clean = PowerLossFileSystem()
        let all = await workload(clean)
        #expect(all.applied == (1...6).map { "n\($0)" } && all.closed)
        let calls = clean.mutatingCalls
        #expect(calls > 20)
        var disksChecked = 0
        for crashPoint in 0...calls {
            let fileSystem = PowerLossFileSystem()
            fileSystem.crash(beforeCall: crashPoint)
            let seen = await workload(fileSystem)
            for disk in fileSystem.disksAfterCrash() {
                let context = "crash before call \(crashPoint), \(disk)"
                let restarted = PowerLossFileSystem(files: disk.files)
                let state: PersistentState<Notebook>
                do {
                    state = try openJournaled(try file(restarted))
                } catch {
                    Issue.record("does not start: \(error); \(context)")
                    continue
                }
                let notes = state.read { $0.notes.map(\.id) }
                let isProcessCrash = disk.name == "every name change reached the disk, files as written"
                let promised = isProcessCrash ? seen.applied : seen.durable
                #expect(
                    Array(notes.prefix(promised.count)) == promised,
                    "holds \(notes), promised \(promised); \(context)")
                #expect(
                    notes == Array(all.applied.prefix(notes.count)), "changes in order, none invented; \(context)")
                #expect(state.journalReplay?.keptAside.isEmpty == true, "\(state.journalReplay!); \(context)")
                disksChecked += 1
            }
        }
        #expect(disksChecked == (calls + 1) * 6)
    }
}
