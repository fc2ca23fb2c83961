import Foundation
import NIOHTTP1
import StateStore
import UnixHTTP
import WorkspaceClient
import WorkspaceModel

extension ControlAPI {
    /// `GET /v1/events`: the events of ``events`` as newline-delimited JSON, from a `subscribed` event on, until
    /// the daemon stops or the client goes away (docs/api.md, "Events").
    func eventRoutes() -> [(APIRoute, HTTPRouter.Handler)] {
        [(APIRoute.events, { _ in await self.respond { try self.eventStream() } })]
    }

    /// Subscribes and answers with the stream; 503 once the daemon is stopping.
    ///
    /// Subscribing and reading the revision happen under the change gate, where every change is applied and
    /// published: the `subscribed` event's revision is exactly the last one this reader will not see a `change`
    /// event for.
    private func eventStream() throws(APIFailure) -> HTTPResponse {
        let (subscription, revision) = gate.withLock { _ in (events.subscribe(), state.status.revision) }
        guard let subscription else {
            throw APIFailure(.serviceUnavailable, APIErrorCode.unavailable, "the daemon is stopping; no events follow")
        }
        let greeting = WorkspaceEvent(
            sequence: subscription.startSequence, time: Date(), kind: .subscribed(revision: revision))
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
    /// Publishes the `change` event of an applied change: its revision, the operation the router named, and the
    /// record it created or returned, else the one its path names.
    func publishChange<Value>(_ applied: Applied<Value>, request: HTTPRequest) {
        let id =
            (applied.value as? any EventRecord)?.eventRecordID ?? request.pathParameters["id"].flatMap(WorkspaceID.init)
        events.publish(
            .change(revision: applied.revision, operation: ChangeEventContext.operation ?? "change", id: id))
    }
}
