import FoundationEssentials

/// The clock and timers a ``PersistentState`` uses, as a seam so that tests control time instead of sleeping.
///
/// ``DispatchPersistenceScheduler`` is the real one; `ManualPersistenceScheduler` in StateStoreTesting fires
/// timers only when a test advances it.
public protocol PersistenceScheduler: Sendable {
    /// The current instant of a monotonic clock, for intervals.
    var now: ContinuousClock.Instant { get }
    /// The current wall-clock time, for status reports and logs.
    var date: Date { get }
    /// Runs `action` once, `delay` from now, on a thread of the scheduler's choosing (never the caller's
    /// stack). The returned timer cancels it.
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any PersistenceTimer
}

/// A scheduled action that can still be cancelled.
public protocol PersistenceTimer: Sendable {
    /// Stops the action from running if it has not started; calling it more than once is harmless.
    func cancel()
}
