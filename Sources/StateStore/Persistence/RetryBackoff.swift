/// Bounded exponential backoff between attempts to save after a failure.
///
/// The n-th consecutive failure waits `initial × multiplier^(n-1)`, never more than ``maximum``. Retries go on
/// at the maximum interval for as long as saves fail; every attempt writes a new temporary file.
public struct RetryBackoff: Sendable, Equatable {
    /// The wait after the first failure. Default 1 s.
    public var initial: Duration
    /// The longest wait. Default 60 s.
    public var maximum: Duration
    /// The growth factor between consecutive failures; at least 1. Default 2.
    public var multiplier: Double

    /// A backoff from `initial` growing by `multiplier` up to `maximum`.
    public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(60), multiplier: Double = 2) {
        self.initial = max(.zero, initial)
        self.maximum = max(self.initial, maximum)
        self.multiplier = max(1, multiplier)
    }

    /// The wait after `consecutiveFailures` failures in a row (1 for the first).
    public func delay(afterFailures consecutiveFailures: Int) -> Duration {
        guard consecutiveFailures > 0 else { return .zero }
        var delay = initial
        for _ in 1..<consecutiveFailures {
            delay = delay * multiplier
            if delay >= maximum { return maximum }
        }
        return min(delay, maximum)
    }
}
