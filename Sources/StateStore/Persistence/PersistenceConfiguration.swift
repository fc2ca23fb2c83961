/// When a ``PersistentState`` saves, and how it retries after a failed save.
///
/// A save starts once the state has been quiet for ``debounce`` after the last change, and never later than
/// ``maximumDelay`` after the first change that no save has taken yet, so a constant stream of changes is still
/// saved. After a failure, the next attempt waits for ``retryBackoff``.
public struct PersistenceConfiguration: Sendable, Equatable {
    /// How long the state must be quiet after a change before it is saved. Default 500 ms.
    public var debounce: Duration
    /// The longest a change waits for a save to start, however busy the state is. Default 5 s.
    public var maximumDelay: Duration
    /// How long to wait before retrying a failed save.
    public var retryBackoff: RetryBackoff

    /// The defaults: 500 ms debounce, 5 s maximum delay, retries after 1 s doubling up to 60 s.
    ///
    /// A negative debounce counts as zero; a maximum delay shorter than the debounce is raised to it.
    public init(
        debounce: Duration = .milliseconds(500),
        maximumDelay: Duration = .seconds(5),
        retryBackoff: RetryBackoff = RetryBackoff()
    ) {
        self.debounce = max(.zero, debounce)
        self.maximumDelay = max(self.debounce, maximumDelay)
        self.retryBackoff = retryBackoff
    }
}
