import FoundationEssentials
import NIOHTTP1
import StateStore
import UnixHTTP
import WorkspaceAPI
import WorkspaceModel

extension ControlAPI {
    /// `GET /v1/events`: the events of ``events`` as newline-delimited JSON, from a `subscribed` event on, until
    /// the daemon stops or the client goes away (docs/api.md, "Events").
    func eventRoutes() -> [(APIRoute, HTTPRouter.Handler)] {
        [(APIRoute.events, { request in await self.respond { try self.eventStream(request) } })]
    }

    /// Subscribes and answers with the stream; 503 once the daemon is stopping.
    ///
    /// Subscribing and reading the revision happen under the engine's lock, where every change is applied and
    /// published: the `subscribed` event's revision is exactly the last one this reader will not see a `change`
    /// event for. With `?since=ETAG` the changes after that state are replayed from the hub's ring when it is the
    /// same lineage and the ring still holds them, else from the history kept on disk (read off the lock, before
    /// the first event is written: the live events wait in the subscription meanwhile); otherwise the first event
    /// is `reset`.
    private func eventStream(_ request: HTTPRequest) throws(APIFailure) -> HTTPResponse {
        let since = try Self.since(request)
        let (subscription, start) = state.atCurrentRevision { revision in
            Self.subscribe(events, since: since, current: etag(revision: revision))
        }
        guard let subscription else {
            throw APIFailure(.serviceUnavailable, APIErrorCode.unavailable, "the daemon is stopping; no events follow")
        }
        let sequence = subscription.startSequence
        return .stream(.ok, headers: ["Content-Type": "application/x-ndjson", "Cache-Control": "no-store"]) {
            writer in
            var greeting: WorkspaceEventKind
            var replayed: [WorkspaceEvent] = []
            switch start {
            case .greeting(let kind):
                greeting = kind
            case .fromHistory(let since, let current):
                (greeting, replayed) = await self.changesFromHistory(after: since, through: current, sequence: sequence)
            }
            try await writer.write(try WorkspaceEvent(sequence: sequence, time: Date(), kind: greeting).encodedLine())
            for event in replayed {
                try await writer.write(try event.encodedLine())
            }
            for await event in subscription {
                try await writer.write(try event.encodedLine())
            }
        }
    }

    /// The `change` events of the revisions after `since` through `current` (where the reader subscribed), read
    /// from the history, with the `subscribed` event they follow; or a `reset` at `current` when the history does
    /// not hold every one of them (none is kept, it was pruned, a file is damaged, or a revision has no change,
    /// such as a start's migration). The events carry `sequence`, the subscription's: they are not among the
    /// events this process numbered and holds.
    private func changesFromHistory(
        after since: WorkspaceETag, through current: WorkspaceETag, sequence: UInt64
    ) async -> (WorkspaceEventKind, [WorkspaceEvent]) {
        let page: HistoryPage<WorkspaceChange>
        do {
            page = try await readHistory(field: "since") { [state] () throws(HistoryError) in
                try state.changes(WorkspaceChange.self, after: since.revision, limit: Int.max)
            }
        } catch {
            return (
                .reset(
                    revision: current.revision, lineage: current.lineage,
                    reason: "the changes after \(since) are no longer held: \(error.error.message)"),
                []
            )
        }
        // `since` is before `current` here (``subscribe(_:since:current:)``); a change applied since the reader
        // subscribed is in its subscription, so it is left out here.
        let entries = page.entries.prefix { $0.revision <= current.revision }
        guard entries.map(\.revision).elementsEqual(since.revision + 1...current.revision) else {
            return (
                .reset(
                    revision: current.revision, lineage: current.lineage,
                    reason: "the changes after \(since) are no longer held"),
                []
            )
        }
        let now = Date()
        let events = entries.map { entry in
            WorkspaceEvent(
                sequence: sequence, time: entry.date ?? now,
                kind: .change(
                    revision: entry.revision, operation: entry.change.operation, id: entry.change.eventRecordID))
        }
        return (.subscribed(revision: since.revision, lineage: since.lineage), events)
    }
}

/// How a stream starts: with its first event as it is, or with the changes of the history between the `since` the
/// reader gave and the `current` state it subscribed at (the hub's ring no longer holds them).
private enum StreamStart: Sendable {
    case greeting(WorkspaceEventKind)
    case fromHistory(since: WorkspaceETag, current: WorkspaceETag)
}

extension ControlAPI {
    /// The `since` query parameter: an entity tag, or 400.
    private static func since(_ request: HTTPRequest) throws(APIFailure) -> WorkspaceETag? {
        guard let text = request.query("since") else { return nil }
        guard let tag = WorkspaceETag(text) else {
            throw APIFailure(
                .badRequest, APIErrorCode.invalidParameter,
                "since must be an ETag such as 9f2c4e1a7b3d5e60.12 (from GET /v1/workspace, a change or an event)",
                field: "since")
        }
        return tag
    }

    /// Subscribes to `hub` for a reader resuming after `since` (or from now on), with how its stream starts:
    /// `subscribed` at the point the events follow from, the history's changes between `since` and `current` when
    /// the hub no longer holds them, or `reset` at `current` when `since` cannot be resumed.
    private static func subscribe(
        _ hub: EventHub, since: WorkspaceETag?, current: WorkspaceETag
    ) -> (EventSubscription?, StreamStart) {
        let subscribed = WorkspaceEventKind.subscribed(revision: current.revision, lineage: current.lineage)
        guard let since, since != current else { return (hub.subscribe(), .greeting(subscribed)) }
        let reason: String
        if since.lineage != current.lineage {
            reason =
                "\(since) is of another lineage: the state was restored, quarantined, salvaged or imported, "
                + "or may have lost changes in a crash, since"
        } else if since.revision > current.revision {
            reason = "\(since) is a revision this state has not reached"
        } else if let (subscription, resumed) = hub.subscribe(replayingFromChange: since.revision + 1) {
            guard !resumed else {
                return (subscription, .greeting(.subscribed(revision: since.revision, lineage: since.lineage)))
            }
            return (subscription, .fromHistory(since: since, current: current))
        } else {
            return (nil, .greeting(subscribed))
        }
        return (
            hub.subscribe(),
            .greeting(.reset(revision: current.revision, lineage: current.lineage, reason: reason))
        )
    }

    /// Publishes the `change` event of an applied change: its revision, its `operation`, and the record it
    /// created or returned, else the one its path names.
    func publishChange<Value>(_ applied: Applied<Value>, operation: String, request: HTTPRequest) {
        let id =
            (applied.value as? any EventRecord)?.eventRecordID ?? request.pathParameters["id"].flatMap(WorkspaceID.init)
        events.publish(.change(revision: applied.revision, operation: operation, id: id))
        metrics?.changeApplied(operation: operation)
    }
}
