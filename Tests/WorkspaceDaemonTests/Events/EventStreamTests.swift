import Foundation
import Testing
import UnixHTTP
import WorkspaceClient
import WorkspaceDaemon
import WorkspaceModel

/// `GET /v1/events` on a real socket: a watcher sees another client's change at once; a watcher that stops reading
/// delays neither changes nor other watchers and learns what it missed; shutdown does not wait for watchers.
@Suite("Events on the control socket", .timeLimit(.minutes(2)))
struct EventStreamTests {
    @Test func aWatcherSeesAChangeMadeByAnotherClientWithinASecond() async throws {
        let world = try await EventsServer()
        let stream = try await world.client.events()
        var events = stream.makeAsyncIterator()
        let first = try #require(try await events.next())
        #expect(first.kind == .subscribed(revision: 0, lineage: world.state.lineage.rawValue))
        let created = try await world.client.createProject(name: "p1", layout: .single)
        let changedAt = ContinuousClock.now
        let event = try #require(try await events.next())
        let latency = ContinuousClock.now - changedAt
        #expect(latency < .seconds(1), "the change event came \(latency) after the change's answer")
        #expect(event.kind == .change(revision: created.revision, operation: "project.create", id: created.value?.id))
        #expect(event.sequence > first.sequence)
        await world.stop()
    }

    @Test func theStreamIsNewlineDelimitedJSONWithTheSubscribedEventFirst() async throws {
        let world = try await EventsServer()
        _ = try await world.client.addFavorite(name: "f", path: "/f")
        let response = try await UnixHTTPClient(socketPath: world.socketPath).open(method: .GET, path: "/v1/events")
        #expect(response.status == .ok)
        #expect(response.headers.first(name: "content-type") == "application/x-ndjson")
        var lines = response.body.lines().makeAsyncIterator()
        let line = try #require(try await lines.next())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "subscribed")
        #expect(object["revision"] as? Int == 1)
        #expect(object["sequence"] as? Int == 1, "the sequence of the last event published before it")
        #expect((object["time"] as? String)?.hasSuffix("Z") == true)
        await world.stop()
    }

    /// A raw reader sends the request and never reads; 1500 changes go through another client, each awaited by a
    /// second watcher before the next (lockstep: a delay anywhere would show as a stall here). Then the stalled
    /// reader reads: it finds `lagged`, and what it received plus what it missed is every change.
    @Test func aStalledWatcherDelaysNeitherChangesNorAnotherWatcherAndLearnsWhatItMissed() async throws {
        let world = try await EventsServer(bufferSize: 16)
        let stalled = try StalledWatcher(socketPath: world.socketPath)
        let watcher = try await world.client.events()
        var events = watcher.makeAsyncIterator()
        #expect(try await events.next()?.type == "subscribed")
        #expect(await eventually(timeout: .seconds(20)) { world.events.subscriberCount == 2 })
        let changes = 1500
        var slowest = Duration.zero
        for index in 1...changes {
            let started = ContinuousClock.now
            let answer = try await world.client.updateOwner(alias: "owner \(index)")
            let event = try await events.next()
            slowest = max(slowest, ContinuousClock.now - started)
            guard event?.kind == .change(revision: answer.revision, operation: "owner.update", id: nil) else {
                Issue.record("change \(index): the other watcher got \(String(describing: event))")
                return
            }
        }
        #expect(slowest < .seconds(2), "the slowest change and its event took \(slowest)")
        let (received, _) = await stalled.read { events in
            events.contains { $0.revision == changes && $0.type == "change" }
        }
        let lagged = received.filter { $0.type == "lagged" }
        let delivered = received.filter { $0.type == "change" }
        #expect(!lagged.isEmpty, "the stalled watcher was told it missed events")
        #expect(delivered.count + lagged.reduce(0) { $0 + ($1.missed ?? 0) } == changes)
        #expect(delivered.last?.revision == changes)
        await world.stop()
    }

    @Test func shutdownDoesNotWaitForWatchersEvenOneThatStoppedReading() async throws {
        let world = try await EventsServer(bufferSize: 16, grace: .seconds(60))
        let stalled = try StalledWatcher(socketPath: world.socketPath)
        let watcher = try await world.client.events()
        #expect(await eventually(timeout: .seconds(20)) { world.events.subscriberCount == 2 })
        // Enough to fill the stalled watcher's socket: its stream is stuck in a write.
        for level in 0..<5000 { world.events.publish(.configReloaded(logLevel: "level \(level)")) }
        let draining = Task {
            var count = 0
            for try await _ in watcher { count += 1 }
            return count
        }
        let started = ContinuousClock.now
        await world.server.shutdown()
        let took = ContinuousClock.now - started
        #expect(took < .seconds(5), "shutdown took \(took) with two watchers (grace period 60 s)")
        // The watcher's stream ended (properly, or cut off if a write was in flight) rather than hanging.
        _ = await draining.result
        let (_, ended) = await stalled.read { _ in false }
        #expect(ended, "the stalled watcher's connection was closed")
        await world.stop()
    }

    @Test func afterTheDaemonStoppedTheRouteAnswers503() async throws {
        let world = try await EventsServer()
        world.events.close()
        await #expect {
            _ = try await world.client.events()
        } throws: { error in
            guard case WorkspaceClientError.refused(503, let body) = error else { return false }
            return body.code == "unavailable"
        }
        await world.stop()
    }
}
