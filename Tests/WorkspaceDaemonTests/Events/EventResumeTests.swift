import Foundation
import Testing
import UnixHTTP
import WorkspaceAPI
import WorkspaceDaemon

/// `GET /v1/events?since=ETAG`: the changes after a state replayed from the hub's history, or `reset`.
@Suite("Event streams resume from an ETag")
struct EventResumeTests {
    /// Reads events of a stream until `count` have come.
    static func read(_ run: RestartableAPI.Run, query: String, count: Int) async throws -> [WorkspaceEventKind] {
        let response = await run.responder.respond(.GET, "/v1/events" + query, peer: InProcessAPI.root)
        try #require(response.status == .ok)
        let collected = try EventLifecycleTests.CollectedLines(response)
        defer { collected.producer.cancel() }
        var kinds: [WorkspaceEventKind] = []
        for await line in collected.lines {
            kinds.append(try WorkspaceEvent.decode(line: line).kind)
            if kinds.count == count { break }
        }
        return kinds
    }

    static func changeRevisions(_ kinds: some Sequence<WorkspaceEventKind>) -> [UInt64] {
        kinds.compactMap { if case .change(let revision, _, _) = $0 { revision } else { nil } }
    }

    @Test func aResumeInsideTheHistoryGetsExactlyTheMissedChangesInOrder() async throws {
        let directory = try RestartableAPI()
        let run = try directory.open()
        for index in 0..<5 { #expect(await run.addFavorite("F\(index)").status == .created) }
        let lineage = run.state.lineage.rawValue
        let kinds = try await Self.read(run, query: "?since=\(lineage).2", count: 4)
        #expect(kinds.first == .subscribed(revision: 2, lineage: lineage))
        #expect(Self.changeRevisions(kinds) == [3, 4, 5])
        try run.stop()
    }

    @Test func aResumeAtTheCurrentStateReplaysNothingAndFollowsNewChanges() async throws {
        let directory = try RestartableAPI()
        let run = try directory.open()
        #expect(await run.addFavorite("A").status == .created)
        let lineage = run.state.lineage.rawValue
        let response = await run.responder.respond(.GET, "/v1/events?since=\(lineage).1", peer: InProcessAPI.root)
        let collected = try EventLifecycleTests.CollectedLines(response)
        defer { collected.producer.cancel() }
        var lines = collected.lines.makeAsyncIterator()
        let first = try WorkspaceEvent.decode(line: try #require(await lines.next()))
        #expect(first.kind == .subscribed(revision: 1, lineage: lineage))
        #expect(await run.addFavorite("B").status == .created)
        let second = try WorkspaceEvent.decode(line: try #require(await lines.next()))
        #expect(Self.changeRevisions([second.kind]) == [2])
        try run.stop()
    }

    @Test func aResumeWhoseChangesAreNoLongerHeldGetsReset() async throws {
        let directory = try RestartableAPI()
        let run = try directory.open(history: 4)
        for index in 0..<10 { #expect(await run.addFavorite("F\(index)").status == .created) }
        let lineage = run.state.lineage.rawValue
        let kinds = try await Self.read(run, query: "?since=\(lineage).2", count: 1)
        guard case .reset(10, lineage, let reason) = kinds.first else {
            Issue.record("expected reset at revision 10, got \(kinds)")
            return
        }
        #expect(reason.contains("no longer held"), "\(reason)")
        let future = try await Self.read(run, query: "?since=\(lineage).11", count: 1)
        #expect(future.first.map { if case .reset = $0 { true } else { false } } == true)
        try run.stop()
    }

    @Test func aCleanRestartResumesAndACrashResets() async throws {
        let directory = try RestartableAPI()
        let first = try directory.open()
        for index in 0..<3 { #expect(await first.addFavorite("F\(index)").status == .created) }
        let lineage = first.state.lineage.rawValue
        try first.stop()
        // Clean restart: the same lineage; the change made after it is replayed to a reader of revision 3.
        let second = try directory.open()
        #expect(await second.addFavorite("G").status == .created)
        let resumed = try await Self.read(second, query: "?since=\(lineage).3", count: 2)
        #expect(resumed.first == .subscribed(revision: 3, lineage: lineage))
        #expect(Self.changeRevisions(resumed) == [4])
        // A reader further behind than the restart: those changes went with the old process.
        let behind = try await Self.read(second, query: "?since=\(lineage).1", count: 1)
        #expect(behind.first.map { if case .reset(4, lineage, _) = $0 { true } else { false } } == true)
        second.crash()
        // After a crash the lineage is new: every earlier ETag gets reset.
        let third = try directory.open()
        let reset = try await Self.read(third, query: "?since=\(lineage).3", count: 1)
        guard case .reset(_, let newLineage, let reason) = reset.first else {
            Issue.record("expected reset, got \(reset)")
            return
        }
        #expect(newLineage == third.state.lineage.rawValue && newLineage != lineage)
        #expect(reason.contains("another lineage"), "\(reason)")
        try third.stop()
    }

    @Test func aMalformedSinceIsA400() async throws {
        let directory = try RestartableAPI()
        let run = try directory.open()
        let response = await run.send(.GET, "/v1/events?since=12")
        #expect(response.status == .badRequest && response.errorCode == "invalid_parameter")
        try run.stop()
    }
}
