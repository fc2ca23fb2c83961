import WorkspaceAPI

/// One reader of an ``EventHub``: an async sequence of the events published since it subscribed, with a `lagged`
/// event wherever its buffer overflowed.
///
/// The sequence ends when the hub closes (after the events still buffered) or when the iterating task is
/// cancelled (the same way: what is buffered is still read, nothing new is taken). Releasing the subscription
/// unsubscribes it.
package final class EventSubscription: AsyncSequence, Sendable {
    /// One event.
    package typealias Element = WorkspaceEvent
    /// Iteration does not fail.
    package typealias Failure = Never

    private let hub: EventHub
    private let id: UInt64
    /// The sequence number of the last event published before this reader subscribed: it receives the later ones.
    package let startSequence: UInt64

    init(hub: EventHub, id: UInt64, startSequence: UInt64) {
        self.hub = hub
        self.id = id
        self.startSequence = startSequence
    }

    deinit {
        hub.remove(id)
    }

    /// The next event, waiting for one to be published; `nil` once the subscription ended.
    package func next() async -> WorkspaceEvent? {
        await hub.next(for: id)
    }

    /// The iterator.
    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(subscription: self)
    }

    /// Yields the events.
    package struct AsyncIterator: AsyncIteratorProtocol {
        /// Iteration does not fail.
        package typealias Failure = Never

        let subscription: EventSubscription

        /// The next event; `nil` once the subscription ended.
        package mutating func next() async -> WorkspaceEvent? {
            await subscription.next()
        }
    }
}
