import Foundation
import Synchronization
import TestSupport
import Testing
import WorkspaceAPI
import WorkspaceDaemon

/// The event hub: sequence numbers, a bounded buffer per reader, exact `lagged` counts, and a publisher that never
/// waits for a reader.
@Suite("Event hub")
struct EventHubTests {
    private static func reload(_ level: Int) -> WorkspaceEventKind { .configReloaded(logLevel: "level \(level)") }

    /// The events a subscription holds now, without waiting (it is closed first so the last `next()` ends).
    private static func drain(_ subscription: EventSubscription, closing hub: EventHub) async -> [WorkspaceEvent] {
        hub.close()
        var events: [WorkspaceEvent] = []
        for await event in subscription { events.append(event) }
        return events
    }

    @Test func aReaderGetsEveryEventInOrderWithIncreasingSequenceNumbers() async throws {
        let hub = EventHub()
        hub.publish(Self.reload(0))  // before the subscription: not delivered
        let subscription = try #require(hub.subscribe())
        #expect(subscription.startSequence == 1)
        for level in 1...5 { hub.publish(Self.reload(level)) }
        let events = await Self.drain(subscription, closing: hub)
        #expect(events.map(\.sequence) == [2, 3, 4, 5, 6])
        #expect(events.map(\.kind) == (1...5).map(Self.reload))
    }

    @Test func aReaderThatFallsBehindGetsLaggedWithTheExactCountThenTheNewestEvents() async throws {
        let hub = EventHub(bufferSize: 4)
        let subscription = try #require(hub.subscribe())
        for level in 1...10 { hub.publish(Self.reload(level)) }
        let events = await Self.drain(subscription, closing: hub)
        #expect(events.first?.kind == .lagged(missed: 6))
        #expect(events.first?.sequence == 6, "a lagged event carries the last missed sequence number")
        #expect(events.dropFirst().map(\.sequence) == [7, 8, 9, 10])
    }

    @Test func eachOverflowAfterAReadIsReportedAgainAndTheCountsAddUp() async throws {
        let hub = EventHub(bufferSize: 2)
        let subscription = try #require(hub.subscribe())
        for level in 1...5 { hub.publish(Self.reload(level)) }  // 1-3 dropped, 4-5 kept
        #expect(await subscription.next()?.kind == .lagged(missed: 3))
        for level in 6...8 { hub.publish(Self.reload(level)) }  // 4, 5, 6 dropped, 7-8 kept
        let rest = await Self.drain(subscription, closing: hub)
        #expect(rest.map(\.kind) == [.lagged(missed: 3), Self.reload(7), Self.reload(8)])
        #expect(rest.first?.sequence == 6)
        // The hub counts every drop, for workspaced_events_dropped_total.
        #expect(hub.droppedCount == 6)
    }

    @Test func aStalledReaderNeitherBlocksThePublisherNorDelaysAnotherReader() async throws {
        let hub = EventHub(bufferSize: 8)
        let stalled = try #require(hub.subscribe())
        let reader = try #require(hub.subscribe())
        let started = ContinuousClock.now
        for level in 1...1000 {
            hub.publish(Self.reload(level))
            // The other reader keeps up and gets every event, without a gap.
            let event = await reader.next()
            #expect(event?.kind == Self.reload(level))
        }
        #expect(ContinuousClock.now - started < .seconds(20))
        let held = await Self.drain(stalled, closing: hub)
        #expect(held.first?.kind == .lagged(missed: 992))
        #expect(held.dropFirst().map(\.sequence) == Array(993...1000))
    }

    @Test func publishingWithManyStalledReadersNeverWaits() async throws {
        let hub = EventHub(bufferSize: 16)
        let readers = (0..<200).compactMap { _ in hub.subscribe() }
        #expect(readers.count == 200)
        // Every buffer is full after the 17th event; the 983 after it are 196,600 deliveries into full buffers, any
        // of which would hang for good if a publish waited for a reader. The bound is that hang's guard, ten times
        // what a loaded debug build takes (about 2 s); off the cooperative pool, whose two threads the rest of the
        // run needs meanwhile.
        let took = await offThePool {
            let started = ContinuousClock.now
            for level in 1...1_000 { hub.publish(Self.reload(level)) }
            return ContinuousClock.now - started
        }
        #expect(took < .seconds(20), "200,000 deliveries into full buffers")
        #expect(await readers[0].next()?.kind == .lagged(missed: 1_000 - 16))
    }

    @Test func aWaitingReaderIsWokenByAPublishFromAnotherThread() async throws {
        let hub = EventHub()
        let subscription = try #require(hub.subscribe())
        let waiting = Task { await subscription.next() }
        DispatchQueue.global().async { hub.publish(.stopping(signal: 15)) }
        #expect(await waiting.value?.kind == .stopping(signal: 15))
    }

    @Test func closeEndsEveryReaderAfterWhatItHoldsAndRefusesNewOnes() async throws {
        let hub = EventHub()
        let subscription = try #require(hub.subscribe())
        let idle = try #require(hub.subscribe())
        let waiting = Task { await idle.next() }
        hub.publish(.stopping(signal: 15))
        hub.close()
        hub.publish(Self.reload(1))  // after close: dropped
        #expect(await subscription.next()?.kind == .stopping(signal: 15))
        #expect(await subscription.next() == nil)
        #expect(await waiting.value?.kind == .stopping(signal: 15), "what was published before close is read")
        #expect(hub.subscribe() == nil)
    }

    @Test func cancellingAWaitingReaderEndsItsIteration() async throws {
        let hub = EventHub()
        let subscription = try #require(hub.subscribe())
        let iterating = Task {
            var count = 0
            for await _ in subscription { count += 1 }
            return count
        }
        hub.publish(Self.reload(1))
        iterating.cancel()
        #expect(await iterating.value <= 1)
    }

    @Test func releasingASubscriptionUnsubscribes() throws {
        let hub = EventHub()
        var subscription = hub.subscribe()
        #expect(hub.subscriberCount == 1)
        #expect(subscription != nil)
        subscription = nil
        #expect(hub.subscriberCount == 0)
    }
}
