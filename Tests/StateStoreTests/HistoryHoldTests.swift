import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Synchronization
import TestSupport
import Testing

/// A ``HistoryHold`` between a history and its replicator (issue 43): the history keeps what the replica lacks past
/// its own retention, up to the hold's maximum, prunes it once released, and past the maximum prunes anyway and
/// says so.
@Suite struct HistoryHoldTests {
    /// Snapshots every 1 KiB of segments and a history bound of 8 KiB: 150 changes make about 20 KiB of history.
    static let history = HistoryConfiguration(keepSeconds: 3600, maximumByteCount: 8 << 10)
    static let journal = JournalConfiguration(maximumByteCount: 1024)

    struct Fixture {
        let directory: TemporaryDirectory
        let replica: TemporaryDirectory
        let scheduler = ManualPersistenceScheduler()
        let state: PersistentState<Notebook>
        let hold: HistoryHold?
        let events = HoldEvents()

        init(holdBytes: Int?) throws {
            directory = try TemporaryDirectory()
            replica = try TemporaryDirectory()
            let events = self.events
            hold = holdBytes.map { bytes in
                HistoryHold(maximumByteCount: bytes) { event in events.list.withLock { $0.append(event) } }
            }
            let file = try notebookFile(directory)
            state = try PersistentState(
                file: file, loaded: try file.load(), journaling: NoteChange.self, journal: HistoryHoldTests.journal,
                history: HistoryHoldTests.history, historyHold: hold, scheduler: scheduler)
            try state.saveSynchronously()
        }

        func work(from first: Int, count: Int) throws {
            _ = try HistoryTests().work(state, scheduler: scheduler, from: first, count: count)
        }

        func replicator(_ target: any ReplicaTarget) -> Replicator {
            Replicator(
                stateFilePath: directory.file("notebook.json"), target: target,
                configuration: ReplicatorConfiguration(
                    installation: "host-a", host: "test", syncInterval: .seconds(3600), leaseRenewal: .zero),
                hold: hold)
        }

        func remove() {
            state.file.unlock()
            directory.remove()
            replica.remove()
        }
    }

    /// Without a reader's release, the history keeps every change past its size bound; once the replicator shipped
    /// them it prunes back to the bound at the next save, and the replica restores the oldest revision.
    @Test func aHeldHistoryOutlivesItsRetentionUntilReplicated() async throws {
        // Hundreds of saves with their fsyncs: on a thread of its own, not one of the test pool's two.
        try await offThePool { try Self.aHeldHistoryOutlivesItsRetentionUntilReplicatedBody() }
    }

    static func aHeldHistoryOutlivesItsRetentionUntilReplicatedBody() throws {
        let unheld = try Fixture(holdBytes: nil)
        defer { unheld.remove() }
        try unheld.work(from: 1, count: 150)
        let pruned = try #require(unheld.state.historyStatus)
        #expect((pruned.oldestRevision ?? 0) > 0, "the size bound alone prunes: \(pruned)")

        let fixture = try Fixture(holdBytes: 1 << 20)
        defer { fixture.remove() }
        try fixture.work(from: 1, count: 150)
        let held = try #require(fixture.state.historyStatus)
        #expect(held.oldestRevision == 0, "\(held)")
        #expect(held.byteCount > Self.history.maximumByteCount)
        #expect(held.heldByteCount > Self.history.maximumByteCount && held.heldFileCount == held.fileCount - 1)

        let target = try DirectoryReplicaTarget(directory: fixture.replica.path)
        let status = fixture.replicator(target).sync()
        #expect(status.lastError == nil && status.replicatedRevision == fixture.state.status.revision)
        #expect(fixture.state.historyStatus?.heldByteCount == 0)
        try fixture.work(from: 151, count: 20)
        let after = try #require(fixture.state.historyStatus)
        // Pruned from the oldest end up to the files the pass did not see (those are held).
        #expect((after.oldestRevision ?? 0) > 0 && after.byteCount < held.byteCount, "\(after)")
        #expect(after.heldByteCount < after.byteCount)
        #expect(fixture.hold?.status == HistoryHoldStatus())
        #expect(fixture.events.list.withLock { $0.isEmpty })

        let restored = try TemporaryDirectory()
        defer { restored.remove() }
        let report = try ReplicaRestore.restore(
            from: target, stateFilePath: restored.file("notebook.json"), at: .revision(1))
        #expect(report.revision == 1)
    }

    /// A replica that never gets the files (the store down): the history grows to the hold's maximum, then prunes
    /// the oldest anyway, counting them and telling the observer which revisions the replica will miss.
    @Test func pastItsMaximumTheHoldPrunesAndSaysSo() async throws {
        // Hundreds of saves with their fsyncs: on a thread of its own, not one of the test pool's two.
        try await offThePool { try Self.pastItsMaximumTheHoldPrunesAndSaysSoBody() }
    }

    static func pastItsMaximumTheHoldPrunesAndSaysSoBody() throws {
        let maximum = 48 << 10
        let fixture = try Fixture(holdBytes: maximum)
        defer { fixture.remove() }
        let failing = FailingTarget(try DirectoryReplicaTarget(directory: fixture.replica.path))
        failing.failing.withLock { $0 = true }
        let replicator = fixture.replicator(failing)
        try fixture.work(from: 1, count: 60)
        #expect(replicator.sync().lastError != nil)
        let early = try #require(fixture.state.historyStatus)
        #expect(early.byteCount > Self.history.maximumByteCount && early.oldestRevision == 0, "\(early)")
        #expect(fixture.events.list.withLock { $0.isEmpty })

        try fixture.work(from: 61, count: 250)
        let status = try #require(fixture.state.historyStatus)
        // The manifest is counted in the status, not by the pruning.
        #expect((status.oldestRevision ?? 0) > 0 && status.byteCount <= maximum + 4096, "\(status)")
        let hold = try #require(fixture.hold?.status)
        #expect(hold.droppedFileCount > 0 && hold.droppedByteCount > 0 && hold.lastDropped != nil)
        #expect((hold.newestDroppedRevision ?? .max) <= status.oldestRevision ?? 0)
        let events = fixture.events.list.withLock { $0 }
        let dropped = events.reduce(0) { total, event in
            guard case .pruned(let files, let bytes, let historyBytes, let maximum) = event else { return total }
            #expect(maximum == 48 << 10 && historyBytes > maximum && !files.isEmpty)
            #expect(bytes == files.reduce(0) { $0 + $1.byteCount })
            return total + bytes
        }
        #expect(dropped == hold.droppedByteCount)

        // The store back: the replica gets what is left, and the history returns to its own bound.
        failing.failing.withLock { $0 = false }
        #expect(replicator.sync().lastError == nil)
        #expect(fixture.state.historyStatus?.heldByteCount == 0)
        try fixture.work(from: 311, count: 6)
        let after = try #require(fixture.state.historyStatus)
        #expect((after.oldestRevision ?? 0) > status.oldestRevision ?? .max, "\(after)")
        #expect(fixture.hold?.status == hold, "released files are pruned without a word")
    }

    /// Age is no reason to prune a held file either: an hour past `keepSeconds` the history keeps what the replica
    /// lacks, and prunes it once released.
    @Test func heldFilesOutliveTheirAge() async throws {
        // Hundreds of saves with their fsyncs: on a thread of its own, not one of the test pool's two.
        try await offThePool { try Self.heldFilesOutliveTheirAgeBody() }
    }

    static func heldFilesOutliveTheirAgeBody() throws {
        let fixture = try Fixture(holdBytes: 1 << 20)
        defer { fixture.remove() }
        try fixture.work(from: 1, count: 60)
        fixture.scheduler.advance(by: .seconds(7200))
        try fixture.work(from: 61, count: 10)
        #expect(fixture.state.historyStatus?.oldestRevision == 0)
        let target = try DirectoryReplicaTarget(directory: fixture.replica.path)
        #expect(fixture.replicator(target).sync().lastError == nil)
        try fixture.work(from: 71, count: 10)
        let after = try #require(fixture.state.historyStatus)
        #expect((after.oldestRevision ?? 0) > 0, "\(after)")
    }
}

/// The events a hold told, in order.
final class HoldEvents: Sendable {
    let list = Mutex<[HistoryHoldEvent]>([])
}
