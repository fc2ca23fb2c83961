import Foundation
import StateStore
import Testing
import WorkspaceAPI
import WorkspaceModel

/// `GET /v1/events?since=ETAG` of the current lineage whose changes the hub's ring no longer holds: the history
/// replays them as `change` events before the live ones; `reset` only when it does not reach back that far
/// (docs/api.md, "Resuming").
@Suite("Event streams resume from the history")
struct EventResumeFromHistoryTests {
    /// The revisions of the `change` events among `events`.
    static func changeRevisions(_ events: [WorkspaceEvent]) -> [UInt64] {
        events.compactMap { if case .change(let revision, _, _) = $0.kind { revision } else { nil } }
    }

    @Test func changesTheRingNoLongerHoldsAreReplayedFromTheHistoryThenTheLiveOnesFollow() async throws {
        // A ring of two events: the hub holds only the last changes.
        let server = try await HistoryServer(ring: 2)
        let project = try await server.createProject("P")  // 1
        let pane = try await server.send(.POST, "/v1/projects/\(project)/panes", #"{"folder": "/srv"}"#)  // 2
        let paneID = try #require(pane.value["id"].flatMap { $0 as? String }.flatMap(WorkspaceID.init))
        let changedAt = server.scheduler.date
        for index in 0..<8 { try await server.rename(project, to: "N\(index)") }  // 3...10
        let sequenceBefore = server.events.lastSequence

        let reader = try EventReader(socketPath: server.socketPath, query: "?since=\(server.lineage).1")
        let replay = await reader.read(count: 10)
        try #require(replay.count == 10, "\(replay)")
        #expect(replay[0].kind == .subscribed(revision: 1, lineage: server.lineage))
        #expect(Self.changeRevisions(replay) == Array(2...10))
        #expect(replay[1].kind == .change(revision: 2, operation: "pane.create", id: paneID))
        #expect(replay[2].kind == .change(revision: 3, operation: "project.update", id: WorkspaceID(project)))
        // Not events this process numbers: they carry the greeting's sequence, and the time of their change.
        #expect(replay.allSatisfy { $0.sequence == sequenceBefore }, "\(replay.map(\.sequence))")
        #expect(
            replay[1].time.timeIntervalSince1970
                == changedAt.timeIntervalSince1970.rounded(.down))

        try await server.rename(project, to: "Live")  // 11
        let live = await reader.read(count: 11)
        #expect(Self.changeRevisions(live) == Array(2...11), "nothing missed or repeated")
        #expect(live.last?.sequence == sequenceBefore + 1)
        await server.stop()
    }

    @Test func theRingIsStillUsedWhileItHoldsTheChanges() async throws {
        let server = try await HistoryServer()
        let project = try await server.createProject("P")
        try await server.rename(project, to: "Q")
        let reader = try EventReader(socketPath: server.socketPath, query: "?since=\(server.lineage).1")
        let events = await reader.read(count: 2)
        #expect(events.first?.kind == .subscribed(revision: 1, lineage: server.lineage))
        // The ring replays every held event with its own sequence, the durable saves included when there are any.
        #expect(Self.changeRevisions(events) == [2])
        #expect(events.last?.sequence == server.events.lastSequence)
        await server.stop()
    }

    @Test func withoutHistoryTheStreamIsReset() async throws {
        let server = try await HistoryServer(history: .off, ring: 2)
        let project = try await server.createProject("P")
        for index in 0..<5 { try await server.rename(project, to: "N\(index)") }
        let reader = try EventReader(socketPath: server.socketPath, query: "?since=\(server.lineage).1")
        let first = await reader.read(count: 1).first
        guard case .reset(6, server.lineage, let reason) = first?.kind else {
            Issue.record("expected reset at revision 6, got \(String(describing: first))")
            return
        }
        #expect(reason.contains("no longer held") && reason.contains("history.keepSeconds"), "\(reason)")
        await server.stop()
    }

    @Test func aRevisionOlderThanTheHistoryKeptIsReset() async throws {
        let server = try await HistoryServer(
            history: HistoryConfiguration(keepSeconds: 3600, maximumByteCount: 1), ring: 2)
        let project = try await server.createProject("P")
        for index in 0..<5 { try await server.rename(project, to: "N\(index)") }
        try server.snapshot()
        for index in 5..<10 { try await server.rename(project, to: "N\(index)") }
        try server.snapshot()
        let reader = try EventReader(socketPath: server.socketPath, query: "?since=\(server.lineage).1")
        let first = await reader.read(count: 1).first
        guard case .reset(11, server.lineage, let reason) = first?.kind else {
            Issue.record("expected reset at revision 11, got \(String(describing: first))")
            return
        }
        #expect(reason.contains("no longer held") && reason.contains("older than the history kept"), "\(reason)")
        await server.stop()
    }
}
