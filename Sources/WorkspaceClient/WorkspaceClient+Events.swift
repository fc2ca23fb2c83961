import Foundation
import NIOHTTP1
import UnixHTTP
import WorkspaceAPI

extension WorkspaceClient {
    /// `GET /v1/events`: the daemon's events as they happen, each line as the daemon sent it (one JSON object;
    /// decode it with ``WorkspaceEvent/decode(line:)``). The first is `subscribed`.
    ///
    /// With `since`, the stream resumes after that state: the changes made since follow the `subscribed` event
    /// when the daemon still holds them and the lineage is the same; otherwise the first event is `reset` and the
    /// reader must read the workspace again.
    ///
    /// ``timeout`` bounds connecting and the wait for the answer, not the stream: it lasts until the daemon stops
    /// (the sequence then ends, after a `stopping` event) or the iteration stops (the connection is closed).
    /// - Throws: ``WorkspaceClientError``; iterating throws ``WorkspaceClientError/unreachable(socketPath:reason:)``
    ///   when the connection breaks before the daemon ended the stream.
    public func eventLines(since: WorkspaceETag? = nil) async throws(WorkspaceClientError) -> WorkspaceEventLines {
        var headers: HTTPHeaders = ["Accept": "application/x-ndjson"]
        if let token { headers.add(name: "Authorization", value: "Bearer " + token) }
        let target = APIRoute.events.path() + (since.map { "?since=\($0)" } ?? "")
        let response: HTTPClientStreamingResponse
        do {
            response = try await http.open(method: HTTPMethod(APIRoute.events.method), path: target, headers: headers)
        } catch {
            throw Self.transportError(error, socketPath: socketPath)
        }
        guard (200..<300).contains(Int(response.status.code)) else {
            let body: [UInt8]
            do {
                body = try await response.body.collect()
            } catch {
                throw Self.transportError(error, socketPath: socketPath)
            }
            let _: Empty = try Self.decode(
                HTTPClientResponse(status: response.status, headers: response.headers, body: body),
                method: APIRoute.events.method, target: target)
            throw .invalidResponse("GET \(target): HTTP \(response.status.code) is not an event stream")
        }
        let type = response.headers.first(name: "Content-Type") ?? ""
        guard type.lowercased().hasPrefix("application/x-ndjson") else {
            throw .invalidResponse(
                "GET \(target): the answer is \(type.isEmpty ? "untyped" : type), not application/x-ndjson")
        }
        return WorkspaceEventLines(lines: response.body.lines(), socketPath: socketPath)
    }

    /// `GET /v1/events`: the daemon's events as they happen, decoded. The first is
    /// ``WorkspaceEventKind/subscribed(revision:lineage:)`` (or ``WorkspaceEventKind/reset(revision:lineage:reason:)``
    /// when `since` cannot be resumed); a reader that falls behind gets
    /// ``WorkspaceEventKind/lagged(missed:)``; the sequence ends after ``WorkspaceEventKind/stopping(signal:)``
    /// when the daemon stops. See ``eventLines()`` for the timeout and the errors.
    public func events(since: WorkspaceETag? = nil) async throws(WorkspaceClientError) -> WorkspaceEventStream {
        WorkspaceEventStream(lines: try await eventLines(since: since))
    }
}
