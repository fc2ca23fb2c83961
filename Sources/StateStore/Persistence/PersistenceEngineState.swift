import Dispatch

/// Everything a ``PersistentState`` changes, guarded by its one lock.
struct PersistenceEngineState<Model: Sendable>: Sendable {
    /// The current model; a save takes a copy (copy-on-write, so O(1)).
    var model: Model
    /// Revisions, counters and the last error, as reported.
    var status = PersistenceStatus()
    /// When the latest change was accepted.
    var lastChangeAt: ContinuousClock.Instant?
    /// When the first change that no save has taken yet was accepted; nil when every change is in a save.
    var dirtySince: ContinuousClock.Instant?
    /// The armed timer; its deadline is never later than the save deadline it stands for.
    var timer: ArmedTimer?
    /// Identifies timers so a timer that fires after being replaced does nothing.
    var nextTimerToken: UInt64 = 0
    /// No background save starts before this instant (set after a failure, cleared by a success).
    var retryAt: ContinuousClock.Instant?
    /// A caller waits for durability: save without waiting for the debounce (a failure backoff still applies).
    var urgent = false
    /// Flushes running now; background saves do not start while there are any.
    var flushDepth = 0
    /// Callers waiting for a revision to become durable.
    var waiters: [DurabilityWaiter] = []
    /// Flushes waiting for the save in flight to finish.
    var idleWaiters: [DispatchSemaphore] = []
    /// The save in flight has recorded its outcome (its waiters are settled) and is only telling the observer
    /// before it ends; a waiter that comes now gets that outcome instead of waiting for the next save.
    var savingOutcomeRecorded = false
    /// The change journal of a journaled state; `nil` without one.
    var journal: JournalEngineState?
    /// Journal events to deliver to the observer once the lock is released.
    var journalEvents: [PersistenceEvent] = []

    init(model: Model, revision: UInt64) {
        self.model = model
        self.status = PersistenceStatus(revision: revision, durableRevision: revision)
    }
}

/// A timer armed by the engine, with the token it fires with.
struct ArmedTimer: Sendable {
    var token: UInt64
    var handle: any PersistenceTimer
}

/// A caller waiting for `revision` to become durable.
struct DurabilityWaiter: Sendable {
    var revision: UInt64
    var resume: @Sendable (Result<Void, PersistenceError>) -> Void
}

/// One save: the snapshot it writes and what it stands for.
struct SaveJob<Model: Sendable>: Sendable {
    /// The model as of `revision`.
    var snapshot: Model
    /// The revision the snapshot includes.
    var revision: UInt64
    /// Whether the snapshot was taken while the file needed a rewrite (``PersistenceStatus/fileNeedsRewrite``),
    /// which its success then clears.
    var rewrites: Bool
    /// The engine's `dirtySince` when the snapshot was taken, restored if the save fails.
    var dirtySince: ContinuousClock.Instant?
    /// When the snapshot was taken, by the real clock: save durations are measured work, not scheduled time.
    var startedAt: ContinuousClock.Instant
}
