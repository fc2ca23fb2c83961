import WorkspaceAPI

/// A fixed-capacity FIFO of events: appending to a full ring drops (and returns) the oldest.
struct EventRing: Sendable {
    private var slots: [WorkspaceEvent?]
    private var head = 0
    private(set) var count = 0

    /// An empty ring holding at most `capacity` events (at least one).
    init(capacity: Int) {
        slots = Array(repeating: nil, count: max(1, capacity))
    }

    /// Appends `event`; returns the oldest event when it had to be dropped to make room.
    mutating func append(_ event: WorkspaceEvent) -> WorkspaceEvent? {
        if count == slots.count {
            let dropped = slots[head]
            slots[head] = event
            head = (head + 1) % slots.count
            return dropped
        }
        slots[(head + count) % slots.count] = event
        count += 1
        return nil
    }

    /// The events held, oldest first.
    var elements: [WorkspaceEvent] {
        (0..<count).compactMap { slots[(head + $0) % slots.count] }
    }

    /// Removes and returns the oldest event, if any.
    mutating func popFirst() -> WorkspaceEvent? {
        guard count > 0 else { return nil }
        let event = slots[head]
        slots[head] = nil
        head = (head + 1) % slots.count
        count -= 1
        return event
    }
}
