import Foundation
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
    /// event for. With `?since=ETAG` the changes after that state are replayed from the hub's history when it
    /// is the same lineage and the history still holds them; otherwise the first event is `reset`.
    private func eventStream(_ request: HTTPRequest) throws(APIFailure) -> HTTPResponse {
        let since = try Self.since(request)
        let (subscription, greetingKind) = state.atCurrentRevision { revision in
            Self.subscribe(events, since: since, current: etag(revision: revision))
        }
        guard let subscription else {
            throw APIFailure(.serviceUnavailable, APIErrorCode.unavailable, "the daemon is stopping; no events follow")
        }
        let greeting = WorkspaceEvent(sequence: subscription.startSequence, time: Date(), kind: greetingKind)
        return .stream(.ok, headers: ["Content-Type": "application/x-ndjson", "Cache-Control": "no-store"]) {
            writer in
            try await writer.write(try greeting.encodedLine())
            for await event in subscription {
                try await writer.write(try event.encodedLine())
            }
        }
    }
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

    /// Subscribes to `hub` for a reader resuming after `since` (or from now on), with its first event: `subscribed`
    /// at the point the events follow from, or `reset` at `current` when `since` cannot be resumed.
    private static func subscribe(
        _ hub: EventHub, since: WorkspaceETag?, current: WorkspaceETag
    ) -> (EventSubscription?, WorkspaceEventKind) {
        let subscribed = WorkspaceEventKind.subscribed(revision: current.revision, lineage: current.lineage)
        guard let since, since != current else { return (hub.subscribe(), subscribed) }
        let reason: String
        if since.lineage != current.lineage {
            reason =
                "\(since) is of another lineage: the state was restored, quarantined, salvaged or imported, "
                + "or may have lost changes in a crash, since"
        } else if since.revision > current.revision {
            reason = "\(since) is a revision this state has not reached"
        } else if let (subscription, resumed) = hub.subscribe(replayingFromChange: since.revision + 1) {
            guard !resumed else {
                return (subscription, .subscribed(revision: since.revision, lineage: since.lineage))
            }
            return (
                subscription,
                .reset(
                    revision: current.revision, lineage: current.lineage,
                    reason: "the changes after \(since) are no longer held")
            )
        } else {
            return (nil, subscribed)
        }
        return (hub.subscribe(), .reset(revision: current.revision, lineage: current.lineage, reason: reason))
    }

    /// Publishes the `change` event of an applied change: its revision, its `operation`, and the record it
    /// created or returned, else the one its path names.
    func publishChange<Value>(_ applied: Applied<Value>, operation: String, request: HTTPRequest) {
        let id =
            (applied.value as? any EventRecord)?.eventRecordID ?? request.pathParameters["id"].flatMap(WorkspaceID.init)
        events.publish(.change(revision: applied.revision, operation: operation, id: id))
    }
}
