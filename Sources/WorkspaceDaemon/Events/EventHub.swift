import FoundationEssentials
import Synchronization
import WorkspaceAPI

/// Fans the daemon's events (``WorkspaceAPI/WorkspaceEvent``) out to every reader of `GET /v1/events` without
/// ever waiting for one.
///
/// ``publish(_:)`` takes a lock for as long as it takes to append the event to each reader's buffer and returns:
/// it never blocks on a reader and never allocates per reader beyond its fixed buffer. Each reader
/// (``EventSubscription``) has a buffer of ``bufferSize`` events; when a reader falls that far behind its oldest
/// unread event is dropped, and the next thing it reads is a `lagged` event with the exact number it missed,
/// followed by the newest events. Publishing never waits and one reader's state never affects another's.
///
/// ```swift
/// let hub = EventHub()
/// let subscription = hub.subscribe()!          // nil once the hub is closed
/// hub.publish(.configReloaded(logLevel: "info"))
/// for await event in subscription { print(event.type) }   // ends after close()
/// ```
package final class EventHub: Sendable {
    /// A reader's buffer when none is given: 256 events (tens of kilobytes per reader).
    package static let defaultBufferSize = 256
    /// The recent events kept for readers that resume when none is given: 1,024 (about 100 KB).
    package static let defaultHistorySize = 1024

    /// How many unread events a reader's buffer holds before the oldest is dropped.
    package let bufferSize: Int
    private let now: @Sendable () -> Date
    private let state: Mutex<State>

    private struct State {
        var sequence: UInt64 = 0
        var nextID: UInt64 = 0
        var subscribers: [UInt64: SubscriberQueue] = [:]
        var closed = false
        /// Events dropped from a slow reader's full buffer, all readers together, since the start.
        var dropped = 0
        /// The latest events, for readers that resume (``EventHub/subscribe(replayingFromChange:)``).
        var history: EventRing
    }

    /// A hub whose readers each buffer `bufferSize` events (at least one), keeping the latest `historySize`
    /// events (at least one) for readers that resume, timing events with `now`.
    package init(
        bufferSize: Int = EventHub.defaultBufferSize, historySize: Int = EventHub.defaultHistorySize,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.bufferSize = max(1, bufferSize)
        self.now = now
        self.state = Mutex(State(history: EventRing(capacity: historySize)))
    }

    /// Gives `kind` the next sequence number and the current time and hands it to every reader; never waits.
    /// Does nothing once the hub is closed.
    package func publish(_ kind: WorkspaceEventKind) {
        let (event, waiters) = state.withLock {
            state -> (WorkspaceEvent?, [CheckedContinuation<WorkspaceEvent?, Never>]) in
            guard !state.closed else { return (nil, []) }
            state.sequence += 1
            let event = WorkspaceEvent(sequence: state.sequence, time: now(), kind: kind)
            _ = state.history.append(event)
            var waiters: [CheckedContinuation<WorkspaceEvent?, Never>] = []
            for index in state.subscribers.values.indices {
                let delivered = state.subscribers.values[index].deliver(event)
                if let waiter = delivered.waiter { waiters.append(waiter) }
                if delivered.dropped { state.dropped += 1 }
            }
            return (event, waiters)
        }
        for waiter in waiters { waiter.resume(returning: event) }
    }

    /// A new reader, receiving every event published from now on; `nil` once the hub is closed.
    package func subscribe() -> EventSubscription? {
        state.withLock { state -> EventSubscription? in
            guard !state.closed else { return nil }
            state.nextID += 1
            state.subscribers[state.nextID] = SubscriberQueue(capacity: bufferSize)
            return EventSubscription(hub: self, id: state.nextID, startSequence: state.sequence)
        }
    }

    /// A new reader that first reads the held events from the `change` event of `revision` on (in order, saves
    /// and the rest included), then every event published from now on; `resumed` is false when that change is
    /// no longer held (or never was), and the reader then gets only the events from now on. `nil` once the hub
    /// is closed.
    ///
    /// The replay and the subscription happen under the hub's lock, so no event is missed or read twice between
    /// them.
    package func subscribe(replayingFromChange revision: UInt64) -> (subscription: EventSubscription, resumed: Bool)? {
        state.withLock { state -> (EventSubscription, Bool)? in
            guard !state.closed else { return nil }
            let held = state.history.elements
            let start = held.firstIndex {
                if case .change(let changed, _, _) = $0.kind { return changed == revision }
                return false
            }
            let replayed = start.map { Array(held[$0...]) } ?? []
            state.nextID += 1
            state.subscribers[state.nextID] = SubscriberQueue(capacity: bufferSize, replayed: replayed)
            let startSequence = replayed.first.map { $0.sequence - 1 } ?? state.sequence
            return (EventSubscription(hub: self, id: state.nextID, startSequence: startSequence), start != nil)
        }
    }

    /// Ends every reader once it has read what it holds, and refuses new readers and events (the daemon stops).
    package func close() {
        let waiters = state.withLock { state in
            state.closed = true
            return state.subscribers.values.indices.compactMap { state.subscribers.values[$0].finish() }
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    /// The readers now.
    package var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Events dropped from slow readers' full buffers since the start (each reader then reads a `lagged` event).
    package var droppedCount: Int { state.withLock { $0.dropped } }

    /// The sequence number of the latest event (0 before the first).
    package var lastSequence: UInt64 { state.withLock { $0.sequence } }

    /// The next event for reader `id`: at once when one is there, else when one is published, `nil` once the
    /// reader is finishing and drained.
    func next(for id: UInt64) async -> WorkspaceEvent? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> WorkspaceEvent?? in
                    guard state.subscribers[id] != nil else { return .some(nil) }
                    switch state.subscribers[id]!.take(now: now()) {
                    case .event(let event): return .some(event)
                    case .end: return .some(nil)
                    case .wait:
                        state.subscribers[id]!.park(continuation)
                        return .none
                    }
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            finish(id)
        }
    }

    /// Reader `id` accepts no more events (its task was cancelled); it still reads what it holds.
    func finish(_ id: UInt64) {
        let waiter = state.withLock { $0.subscribers[id]?.finish() }
        waiter?.resume(returning: nil)
    }

    /// Forgets reader `id` (its subscription is gone).
    func remove(_ id: UInt64) {
        let waiter = state.withLock { state -> CheckedContinuation<WorkspaceEvent?, Never>? in
            guard var queue = state.subscribers.removeValue(forKey: id) else { return nil }
            return queue.finish()
        }
        waiter?.resume(returning: nil)
    }
}
