import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Synchronization
import TestSupport
import Testing

/// Replication of a journaled state's history to a directory target, and its restore elsewhere (issue 43): the
/// state after a crash, the state at chosen revisions and times, the lease, a store that fails, damaged and missing
/// objects.
@Suite(.heavy) struct ReplicatorTests {
    /// A source state with history, its replicator and the replica.
    struct Source {
        let directory: TemporaryDirectory
        let replica: TemporaryDirectory
        let target: any ReplicaTarget
        let scheduler = ManualPersistenceScheduler()
        let file: StateFile<Notebook>
        let state: PersistentState<Notebook>
        let replicator: Replicator
        /// The note titles at each revision reached, and the scheduler's time when it was reached.
        var expected: [UInt64: [String]] = [0: []]
        var times: [UInt64: Date] = [:]

        init(segmentBytes: Int = 300, target: (any ReplicaTarget)? = nil) throws {
            directory = try TemporaryDirectory()
            replica = try TemporaryDirectory()
            self.target = try target ?? DirectoryReplicaTarget(directory: replica.path)
            file = try notebookFile(directory)
            state = try openJournaled(
                file, scheduler: scheduler, journal: JournalConfiguration(maximumByteCount: segmentBytes),
                history: HistoryTests.history)
            try state.saveSynchronously()
            replicator = ReplicatorTests.replicator(directory, self.target)
        }

        /// `count` changes from `first`, flushing every `flushEvery`, recording what each revision holds.
        mutating func work(from first: Int, count: Int, flushEvery: Int = 7) throws {
            for index in first..<(first + count) {
                let change: NoteChange =
                    index % 4 == 3
                    ? .rename(id: "n\(index - 1)", title: "renamed \(index)")
                    : .add(id: "n\(index)", title: "note \(index)")
                let applied = try state.apply(change, returning: { _ in () })
                expected[applied.revision] = state.read { $0.notes.map { "\($0.id):\($0.title)" } }
                times[applied.revision] = scheduler.date
                scheduler.advance(by: .milliseconds(5))
                if index % flushEvery == 0 { try state.flushSynchronously() }
            }
        }

        func remove() {
            directory.remove()
            replica.remove()
        }
    }

    static func replicator(
        _ directory: TemporaryDirectory, _ target: any ReplicaTarget, installation: String = "host-a",
        observer: (@Sendable (ReplicaEvent) -> Void)? = nil
    ) -> Replicator {
        Replicator(
            stateFilePath: directory.file("notebook.json"), target: target,
            configuration: ReplicatorConfiguration(
                installation: installation, host: "test", syncInterval: .seconds(3600), leaseRenewal: .zero),
            observer: observer)
    }

    /// Restores `point` into a new directory and opens it as a start does (load, then replay).
    static func restoreAndOpen(
        _ target: any ReplicaTarget, at point: ReplicaRestorePoint = .latest
    ) throws -> (ReplicaRestoreReport, [String], TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let report = try ReplicaRestore.restore(from: target, stateFilePath: directory.file("notebook.json"), at: point)
        let file = try notebookFile(directory)
        let state = try openJournaled(file, history: HistoryTests.history)
        defer { file.unlock() }
        #expect(state.status.revision == report.revision, "\(report)")
        return (report, state.read { $0.notes.map { "\($0.id):\($0.title)" } }, directory)
    }

    /// Changes replicated pass after pass, then a crash that loses the host's directory: the restore elsewhere
    /// holds every change, across many snapshots and segments, the open segment shipped as several pieces.
    @Test(arguments: [300, 1 << 20])
    func aStateLostWithItsHostComesBackWhole(segmentBytes: Int) throws {
        var source = try Source(segmentBytes: segmentBytes)
        defer { source.remove() }
        for round in 0..<6 {
            try source.work(from: 1 + round * 20, count: 20, flushEvery: segmentBytes > 1000 ? 1000 : 7)
            let status = source.replicator.sync()
            #expect(status.lastError == nil)
            #expect(status.holdsLease)
            #expect(status.replicatedRevision == source.state.status.revision)
            #expect(status.lagRevisions == 0)
        }
        let revision = source.state.status.revision
        source.file.unlock()  // A crash: the journal holds what no save did.
        let pieces = try FileManager.default.subpathsOfDirectory(atPath: source.replica.path).filter {
            $0.contains("/journal.") && !$0.hasSuffix(".json") && $0.split(separator: "/").count == 3
        }
        #expect(pieces.count >= 6, "\(pieces)")
        let (report, titles, restored) = try Self.restoreAndOpen(source.target)
        defer { restored.remove() }
        #expect(report.revision == revision)
        #expect(report.stoppedEarly == nil)
        #expect(titles == source.expected[revision])
    }

    /// The state at three revisions and at a time, each restored into its own directory.
    @Test func pointsInTimeComeBackAsTheyWere() throws {
        var source = try Source()
        defer { source.remove() }
        try source.work(from: 1, count: 90)
        #expect(source.replicator.sync().lastError == nil)
        for revision: UInt64 in [5, 44, 89] {
            let (report, titles, restored) = try Self.restoreAndOpen(source.target, at: .revision(revision))
            defer { restored.remove() }
            #expect(report.revision == revision)
            #expect(titles == source.expected[revision], "revision \(revision)")
        }
        // A revision the replica does not reach is refused, not restored as the newest one.
        let beyond = try TemporaryDirectory()
        defer { beyond.remove() }
        #expect {
            try ReplicaRestore.restore(
                from: source.target, stateFilePath: beyond.file("notebook.json"), at: .revision(91))
        } throws: { error in
            (error as? ReplicaRestoreError)?.reason.contains("reaches revision 90") == true
        }
        #expect(try beyond.names().isEmpty)
        let time = try #require(source.times[60])
        let (report, titles, restored) = try Self.restoreAndOpen(source.target, at: .time(time))
        defer { restored.remove() }
        #expect(report.revision == 60)
        #expect(titles == source.expected[60])
    }

    /// A second installation configured with the same replica writes nothing while the first holds the lease; a
    /// take-over moves it, and the first then stops writing.
    @Test func oneInstallationWritesAtATime() throws {
        var source = try Source()
        defer { source.remove() }
        try source.work(from: 1, count: 10)
        #expect(source.replicator.sync().holdsLease)
        let other = try Source(target: source.target)
        defer { other.directory.remove() }
        let events = Mutex<[ReplicaEvent]>([])
        let second = Self.replicator(other.directory, source.target, installation: "host-b") { event in
            events.withLock { $0.append(event) }
        }
        let refused = second.sync()
        #expect(!refused.holdsLease)
        #expect(refused.heldBy?.installation == "host-a")
        #expect(refused.objectsWritten == 0)
        #expect(events.withLock { $0 } == [.leaseHeldElsewhere(refused.heldBy!)])
        try second.takeOver()
        #expect(second.status.holdsLease)
        let before = try FileManager.default.subpathsOfDirectory(atPath: source.replica.path).count
        try source.work(from: 11, count: 10)
        let first = source.replicator.sync()
        #expect(!first.holdsLease)
        #expect(first.heldBy?.installation == "host-b")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: source.replica.path).count == before)
    }

    /// A store that fails: the passes report it and back off, nothing local is lost, and the first pass after it
    /// comes back ships everything.
    @Test func aFailingStoreIsReportedAndCaughtUp() throws {
        var source = try Source()
        defer { source.remove() }
        let failing = FailingTarget(source.target)
        let replicator = Self.replicator(source.directory, failing)
        try source.work(from: 1, count: 10)
        #expect(replicator.sync().replicatedRevision == source.state.status.revision)
        failing.failing.withLock { $0 = true }
        try source.work(from: 11, count: 30)
        let down = replicator.sync()
        #expect(down.lastError?.contains("injected") == true)
        #expect(down.consecutiveFailures == 1)
        #expect(replicator.sync().consecutiveFailures == 2)
        failing.failing.withLock { $0 = false }
        let up = replicator.sync()
        #expect(up.lastError == nil && up.consecutiveFailures == 0)
        #expect(up.replicatedRevision == source.state.status.revision)
        let (report, titles, restored) = try Self.restoreAndOpen(source.target)
        defer { restored.remove() }
        #expect(report.revision == source.state.status.revision)
        #expect(titles == source.expected[report.revision])
    }

    /// An object whose bytes do not match the SHA-256 in its name is refused by name, and nothing is written.
    @Test func aDamagedObjectIsRefusedByName() throws {
        var source = try Source()
        defer { source.remove() }
        try source.work(from: 1, count: 30)
        source.replicator.sync()
        // The newest snapshot, which a restore of the latest state starts from.
        let snapshot = try #require(
            FileManager.default.subpathsOfDirectory(atPath: source.replica.path).filter {
                $0.contains("/snapshot.")
            }.max { UInt64($0.split(separator: ".")[1])! < UInt64($1.split(separator: ".")[1])! })
        let path = source.replica.path + "/" + snapshot
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count / 2] ^= 1
        try bytes.write(to: URL(fileURLWithPath: path))
        let restored = try TemporaryDirectory()
        defer { restored.remove() }
        #expect {
            try ReplicaRestore.restore(from: source.target, stateFilePath: restored.file("notebook.json"))
        } throws: { error in
            (error as? ReplicaRestoreError)?.object == snapshot
        }
        #expect(try restored.names().isEmpty)
    }

    /// A piece missing from the end of the replica (an upload that never completed) stops the restore at the last
    /// whole record before it, and says so.
    @Test func aMissingPieceStopsTheRestoreBeforeIt() throws {
        var source = try Source(segmentBytes: 1 << 20)
        defer { source.remove() }
        try source.work(from: 1, count: 10, flushEvery: 1000)
        source.replicator.sync()
        let reached = source.state.status.revision
        try source.work(from: 11, count: 5, flushEvery: 1000)
        source.replicator.sync()
        try source.work(from: 16, count: 5, flushEvery: 1000)
        source.replicator.sync()
        let pieces = try FileManager.default.subpathsOfDirectory(atPath: source.replica.path).filter {
            $0.split(separator: "/").count == 3
        }.sorted()
        #expect(pieces.count == 3, "\(pieces)")
        try FileManager.default.removeItem(atPath: source.replica.path + "/" + pieces[1])
        let (report, titles, restored) = try Self.restoreAndOpen(source.target)
        defer { restored.remove() }
        #expect(report.revision == reached)
        #expect(report.stoppedEarly?.contains("no piece at offset") == true, "\(report)")
        #expect(titles == source.expected[reached])
    }

    /// An upload the store kept though its answer was lost (the connection cut mid-answer): the replicator ships
    /// the segment again from that offset, longer. The replica then holds two pieces at one offset, and the restore
    /// joins the longer one's bytes instead of stopping at the shorter one's end.
    @Test func aPieceShippedAgainLongerIsJoinedPastTheShorterOne() throws {
        var source = try Source(segmentBytes: 1 << 20)
        defer { source.remove() }
        try source.work(from: 1, count: 10, flushEvery: 1000)
        source.replicator.sync()
        func pieces() throws -> [String] {
            try FileManager.default.subpathsOfDirectory(atPath: source.replica.path).filter {
                $0.split(separator: "/").count == 3
            }.sorted()
        }
        let short = try #require(try pieces().first)
        #expect(try pieces().count == 1)
        // Out of the replica while a replicator that never learned of it (the answer it waited for was lost)
        // ships the segment again, then back.
        let aside = source.directory.file("short-piece")
        try FileManager.default.moveItem(atPath: source.replica.path + "/" + short, toPath: aside)
        try source.work(from: 11, count: 5, flushEvery: 1000)
        Self.replicator(source.directory, source.target).sync()
        try FileManager.default.moveItem(atPath: aside, toPath: source.replica.path + "/" + short)
        let both = try pieces()
        #expect(both.count == 2, "\(both)")
        let offsets = Set(both.map { ($0 as NSString).lastPathComponent.split(separator: ".")[0] })
        #expect(offsets.count == 1, "two pieces at one offset: \(both)")

        let (report, titles, restored) = try Self.restoreAndOpen(source.target)
        defer { restored.remove() }
        #expect(report.revision == source.state.status.revision, "\(report)")
        #expect(report.stoppedEarly == nil, "\(report)")
        #expect(titles == source.expected[source.state.status.revision])
        // A replicator that lists the replica afresh ships from the longer piece's end.
        let longEnd = both.map { ($0 as NSString).lastPathComponent.split(separator: ".")[1] }.max()!
        try source.work(from: 16, count: 3, flushEvery: 1000)
        Self.replicator(source.directory, source.target).sync()
        let third = try #require(try pieces().first { !both.contains($0) })
        #expect((third as NSString).lastPathComponent.split(separator: ".")[0] == longEnd, "\(third)")
        // The first replicator, which knows only the short piece, ships from its end: a piece that starts inside
        // the longer one.
        try source.work(from: 19, count: 3, flushEvery: 1000)
        source.replicator.sync()
        #expect(try pieces().count == 4)
        let (later, laterTitles, laterRestored) = try Self.restoreAndOpen(source.target)
        defer { laterRestored.remove() }
        #expect(later.revision == source.state.status.revision, "\(later)")
        #expect(later.stoppedEarly == nil, "\(later)")
        #expect(laterTitles == source.expected[source.state.status.revision])
    }

    /// A crash starts a new lineage whose first segment continues the old one without a snapshot: the restore
    /// follows it back to the old lineage's snapshot, at the newest revision and at one before the crash.
    @Test func aLineageAfterACrashIsFollowedBack() throws {
        var source = try Source(segmentBytes: 1 << 20)
        defer { source.remove() }
        try source.work(from: 1, count: 12, flushEvery: 5)
        let beforeCrash = source.state.status.revision
        source.file.unlock()  // A crash with changes only in the journal.
        let file = try notebookFile(source.directory)
        let reopened = try openJournaled(file, history: HistoryTests.history)
        defer { file.unlock() }
        #expect(reopened.lineage != source.state.lineage)
        var expected = source.expected
        for index in 13...20 {
            let applied = try reopened.apply(
                NoteChange.add(id: "n\(index)", title: "after \(index)"), returning: { _ in () })
            expected[applied.revision] = reopened.read { $0.notes.map { "\($0.id):\($0.title)" } }
        }
        let replicator = Self.replicator(source.directory, source.target)
        #expect(replicator.sync().replicatedLineage == reopened.lineage.rawValue)
        for point: ReplicaRestorePoint in [.latest, .revision(beforeCrash - 1)] {
            let (report, titles, restored) = try Self.restoreAndOpen(source.target, at: point)
            defer { restored.remove() }
            #expect(titles == expected[report.revision], "\(point)")
            #expect(report.revision == (point == .latest ? reopened.status.revision : beforeCrash - 1))
        }
    }

    /// A restore writes only where there is no state: a state file or a journal there is refused.
    @Test func aRestoreRefusesADirectoryWithAState() throws {
        var source = try Source()
        defer { source.remove() }
        try source.work(from: 1, count: 5)
        source.replicator.sync()
        for existing in ["notebook.json", "notebook.json.journal.3"] {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            try directory.write(existing, "kept")
            #expect {
                try ReplicaRestore.restore(from: source.target, stateFilePath: directory.file("notebook.json"))
            } throws: { error in
                (error as? ReplicaRestoreError)?.object == directory.file(existing)
            }
            #expect(try directory.read(existing) == Data("kept".utf8))
        }
    }
}

/// A target that fails every call while ``failing`` is set.
final class FailingTarget: ReplicaTarget {
    let inner: any ReplicaTarget
    let failing = Mutex(false)

    init(_ inner: any ReplicaTarget) {
        self.inner = inner
    }

    private func check(_ operation: String) throws(ReplicaError) {
        if failing.withLock({ $0 }) { throw ReplicaError(operation: operation, reason: "injected failure") }
    }

    func create(_ name: ReplicaObjectName, bytes: Data) throws(ReplicaError) -> ReplicaCreation {
        try check("create \(name)")
        return try inner.create(name, bytes: bytes)
    }

    func read(_ name: ReplicaObjectName) throws(ReplicaError) -> (bytes: Data, version: ReplicaObjectVersion)? {
        try check("read \(name)")
        return try inner.read(name)
    }

    func list(prefix: String) throws(ReplicaError) -> [ReplicaObject] {
        try check("list")
        return try inner.list(prefix: prefix)
    }

    func replace(
        _ name: ReplicaObjectName, bytes: Data, ifVersion expected: ReplicaObjectVersion?
    ) throws(ReplicaError) -> ReplicaObjectVersion? {
        try check("replace \(name)")
        return try inner.replace(name, bytes: bytes, ifVersion: expected)
    }

    func remove(_ name: ReplicaObjectName) throws(ReplicaError) {
        try check("remove \(name)")
        try inner.remove(name)
    }
}
