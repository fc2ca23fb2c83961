import FoundationEssentials
import WorkspaceAPI

/// One reader's side of the ``EventHub``: its bounded buffer, what it missed, and its waiting `next()`.
///
/// Invariant: a waiter is parked only while nothing is buffered, nothing was missed and the queue is not finishing,
/// so a published event goes straight to it.
struct SubscriberQueue {
    private var ring: EventRing
    private var missed = 0
    private var lastMissedSequence: UInt64 = 0
    private var waiter: CheckedContinuation<WorkspaceEvent?, Never>?
    /// No more events are accepted (the reader was cancelled, or the hub closed); what is buffered is still read.
    private(set) var isFinishing = false

    /// A queue buffering at most `capacity` events, holding `replayed` to be read first (room is made for them
    /// on top of `capacity`).
    init(capacity: Int, replayed: [WorkspaceEvent] = []) {
        ring = EventRing(capacity: capacity + replayed.count)
        for event in replayed { _ = ring.append(event) }
    }

    /// Takes a published event: hands it to the parked waiter (returned, to resume outside the lock), or buffers
    /// it, dropping the oldest buffered event when full (`dropped` says so).
    mutating func deliver(
        _ event: WorkspaceEvent
    ) -> (waiter: CheckedContinuation<WorkspaceEvent?, Never>?, dropped: Bool) {
        guard !isFinishing else { return (nil, false) }
        if let parked = waiter {
            waiter = nil
            return (parked, false)
        }
        if let dropped = ring.append(event) {
            missed += 1
            lastMissedSequence = dropped.sequence
            return (nil, true)
        }
        return (nil, false)
    }

    /// What `next()` returns now: `.event` (a `lagged` event first when some were dropped), `.end` once finishing
    /// and drained, or `.wait` when nothing is there yet.
    mutating func take(now: Date) -> Take {
        if missed > 0 {
            defer { missed = 0 }
            return .event(WorkspaceEvent(sequence: lastMissedSequence, time: now, kind: .lagged(missed: missed)))
        }
        if let event = ring.popFirst() { return .event(event) }
        return isFinishing ? .end : .wait
    }

    /// The outcome of ``take(now:)``.
    enum Take {
        case event(WorkspaceEvent)
        case end
        case wait
    }

    /// Parks `continuation` until the next event (call only after ``take(now:)`` said `.wait`).
    mutating func park(_ continuation: CheckedContinuation<WorkspaceEvent?, Never>) {
        waiter = continuation
    }

    /// Accepts no more events; returns the parked waiter, to resume with `nil` outside the lock.
    mutating func finish() -> CheckedContinuation<WorkspaceEvent?, Never>? {
        isFinishing = true
        defer { waiter = nil }
        return waiter
    }
}
