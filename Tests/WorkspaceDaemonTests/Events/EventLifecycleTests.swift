import Foundation
import NIOHTTP1
import StateStoreTesting
import Testing
import UnixHTTP
import WorkspaceAPI
import WorkspaceDaemon

/// The daemon's own events through `GET /v1/events` on its in-memory transport: a change, a failed save, the
/// save that recovers, a reload, and the stop, after which the stream ends and the route answers 503.
@Suite("Daemon events, in process", .timeLimit(.minutes(1)))
struct EventLifecycleTests {
    /// The lines a streamed response's producer writes, as they come.
    struct CollectedLines {
        let lines: AsyncStream<String>
        let producer: Task<Void, any Error>

        init(_ response: HTTPResponse) throws {
            let stream = try #require(response.bodyStream)
            let (lines, continuation) = AsyncStream<String>.makeStream()
            self.lines = lines
            producer = Task {
                defer { continuation.finish() }
                try await stream.run(
                    into: HTTPBodyWriter { bytes in
                        continuation.yield(String(decoding: bytes.dropLast(), as: UTF8.self))
                    })
            }
        }
    }

    @Test func changesSavesReloadAndStopAreEventsAndTheStreamEndsAfterTheStop() async throws {
        let world = try await InProcessDaemon()
        let run = Task { await world.lifecycle.run(world.daemon) }
        let running = try #require(await world.lifecycle.whenRunning())
        let response = await world.request(running, .GET, "/v1/events")
        #expect(response.status == .ok)
        #expect(response.headers.first(name: "Content-Type") == "application/x-ndjson")
        let collected = try CollectedLines(response)
        var lines = collected.lines.makeAsyncIterator()
        func next() async throws -> WorkspaceEvent {
            let line = try #require(await lines.next())
            return try WorkspaceEvent.decode(line: line)
        }
        guard case .subscribed(0, let lineage) = try await next().kind else {
            Issue.record("no subscribed event first")
            return
        }
        #expect(lineage.count == 16, "a generated lineage: \(lineage)")

        // The journal's fdatasync fails (the change is answered 503), then the snapshot taken at once fails too.
        world.fileSystem.inject(.fsync, errno: EIO, repeating: true)
        let failed = await world.request(running, .POST, "/v1/favorites?durable=true", #"{"name": "A", "path": "/a"}"#)
        #expect(failed.status == .serviceUnavailable)
        guard case .change(1, "favorite.create", .some) = try await next().kind else {
            Issue.record("no change event first")
            return
        }
        guard case .saveFailed(let error, 1, .some) = try await next().kind else {
            Issue.record("no save_failed event")
            return
        }
        world.fileSystem.clearFaults()
        #expect(error.contains("EIO") || error.contains("Input/output"), "\(error)")
        #expect(await world.request(running, .POST, "/v1/flush").status == .ok)
        guard case .saveDurable(1, _, let bytes) = try await next().kind else {
            Issue.record("no save_durable event")
            return
        }
        #expect(bytes > 0)
        #expect(try await next().kind == .saveRecovered(revision: 1, failures: 1))

        await world.signal(.reload)
        guard case .configReloaded = try await next().kind else {
            Issue.record("no config_reloaded event")
            return
        }
        #expect(await world.request(running, .PATCH, "/v1/owner", #"{"alias": "me"}"#).status == .ok)
        #expect(try await next().kind == .change(revision: 2, operation: "owner.update", id: nil))

        await world.signal(.stop(signal: SIGTERM))
        #expect(try await next().kind == .stopping(signal: SIGTERM))
        guard case .saveDurable(2, _, _) = try await next().kind else {
            Issue.record("the final flush's save_durable did not follow the stopping event")
            return
        }
        #expect(await lines.next() == nil, "the stream ends once the daemon stopped")
        try await collected.producer.value
        let late = await world.request(running, .GET, "/v1/events")
        #expect(late.status == .serviceUnavailable)
        #expect(await run.value == .success)
    }
}
