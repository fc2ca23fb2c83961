import Dispatch
import FoundationEssentials

/// The real scheduler: the system's continuous clock and Dispatch timers on a serial queue.
public struct DispatchPersistenceScheduler: PersistenceScheduler {
    /// The queue timer actions run on.
    public let queue: DispatchQueue
    /// How late a timer may fire so the system can batch wake-ups.
    public let leeway: DispatchTimeInterval

    /// A scheduler running actions on `queue` (a new serial utility queue by default) with `leeway`.
    public init(
        queue: DispatchQueue = DispatchQueue(label: "StateStore.persistence.timer", qos: .utility),
        leeway: DispatchTimeInterval = .milliseconds(1)
    ) {
        self.queue = queue
        self.leeway = leeway
    }

    /// `ContinuousClock.now`.
    public var now: ContinuousClock.Instant { ContinuousClock.now }

    /// `Date()`.
    public var date: Date { Date() }

    /// Arms a one-shot Dispatch timer.
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any PersistenceTimer {
        let source = DispatchSource.makeTimerSource(queue: queue)
        let (seconds, attoseconds) = max(.zero, delay).components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        source.schedule(deadline: .now() + .nanoseconds(nanoseconds), leeway: leeway)
        source.setEventHandler {
            source.cancel()
            action()
        }
        source.resume()
        return DispatchPersistenceTimer(source: source)
    }
}

/// A Dispatch timer source that fires once.
struct DispatchPersistenceTimer: PersistenceTimer, @unchecked Sendable {
    // DispatchSourceTimer is thread-safe; it is only marked non-Sendable because it is a class protocol.
    let source: any DispatchSourceTimer

    func cancel() {
        source.cancel()
    }
}
