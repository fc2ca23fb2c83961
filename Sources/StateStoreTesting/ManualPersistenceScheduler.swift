import Foundation
import StateStore
import Synchronization

/// A `PersistenceScheduler` whose time moves only when a test calls ``advance(by:)``, which runs
/// the timers that fall due, in deadline order, on the caller's thread.
///
/// ```swift
/// let scheduler = ManualPersistenceScheduler()
/// let state = PersistentState(file: file, loaded: loaded, scheduler: scheduler)
/// try state.apply { $0.notes.append(note) }
/// scheduler.advance(by: .milliseconds(499))   // nothing yet
/// scheduler.advance(by: .milliseconds(1))     // the debounce timer fires and the save starts
/// ```
///
/// Use it to test services built on `PersistentState` without sleeping.
public final class ManualPersistenceScheduler: PersistenceScheduler {
    private struct Entry {
        var id: UInt64
        var deadline: ContinuousClock.Instant
        var action: @Sendable () -> Void
    }

    private struct State {
        var now: ContinuousClock.Instant
        var date: Date
        var entries: [Entry] = []
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>

    /// A scheduler starting at the current instant and at `date`.
    public init(date: Date = Date(timeIntervalSince1970: 1_795_000_000)) {
        state = Mutex(State(now: ContinuousClock.now, date: date))
    }

    /// The manual instant.
    public var now: ContinuousClock.Instant { state.withLock { $0.now } }

    /// The manual wall-clock time; it moves with ``advance(by:)``.
    public var date: Date { state.withLock { $0.date } }

    /// How many timers are armed and not cancelled.
    public var pendingTimerCount: Int { state.withLock { $0.entries.count } }

    /// The time until the earliest armed timer, or nil when none is armed.
    public var nextTimerDelay: Duration? {
        state.withLock { state in state.entries.map(\.deadline).min().map { $0 - state.now } }
    }

    /// Records `action` to run when the manual time reaches `delay` from now.
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any PersistenceTimer {
        let id = state.withLock { state in
            state.nextID += 1
            state.entries.append(Entry(id: state.nextID, deadline: state.now + max(.zero, delay), action: action))
            return state.nextID
        }
        return ManualTimer { [weak self] in
            self?.state.withLock { $0.entries.removeAll { $0.id == id } }
        }
    }

    /// Moves time forward by `duration`, running every timer that falls due (including timers those actions
    /// arm within the interval), each with the time set to its deadline. Actions run without any lock held.
    public func advance(by duration: Duration) {
        let target = state.withLock { $0.now + max(.zero, duration) }
        while true {
            let due = state.withLock { state -> Entry? in
                guard
                    let index = state.entries.indices.min(by: {
                        state.entries[$0].deadline < state.entries[$1].deadline
                    }),
                    state.entries[index].deadline <= target
                else { return nil }
                let entry = state.entries.remove(at: index)
                state.date += (max(entry.deadline, state.now) - state.now).timeInterval
                state.now = max(entry.deadline, state.now)
                return entry
            }
            guard let due else { break }
            due.action()
        }
        state.withLock { state in
            state.date += (target - state.now).timeInterval
            state.now = target
        }
    }
}

/// Cancels one manual timer.
struct ManualTimer: PersistenceTimer {
    let onCancel: @Sendable () -> Void

    func cancel() { onCancel() }
}

extension Duration {
    /// The duration in seconds as a `TimeInterval`.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
