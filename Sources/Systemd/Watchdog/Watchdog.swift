import Synchronization

/// Pings the service manager's watchdog every ``WatchdogConfiguration/pingInterval`` while a health check passes.
///
/// Each round first awaits the caller's health check (for example "the state owner answered a request"); only
/// when it returns `true` is `WATCHDOG=1` sent. A failing or hanging check therefore stops the pings and lets
/// systemd restart the service after `WatchdogSec=`. The first round runs as soon as the watchdog starts.
public final class Watchdog: Sendable {
    /// What happened in one round, reported to the optional observer.
    public enum Event: Sendable, Equatable {
        /// The health check passed and `WATCHDOG=1` was sent.
        case pinged
        /// The health check failed; no ping was sent.
        case unhealthy
        /// The health check passed but sending the ping failed.
        case pingFailed(NotifyError)
    }

    /// Decides whether the service is healthy enough to be kept alive.
    public typealias HealthCheck = @Sendable () async -> Bool

    private let configuration: WatchdogConfiguration
    private let notifier: any ServiceNotifier
    private let healthCheck: HealthCheck
    private let observer: (@Sendable (Event) -> Void)?
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Creates a stopped watchdog.
    ///
    /// - Parameters:
    ///   - configuration: the timeout, usually ``WatchdogConfiguration/fromProcessEnvironment()``.
    ///   - notifier: where the pings go.
    ///   - observer: called after every round, for logging; must not block.
    ///   - healthCheck: awaited before each ping.
    public init(
        configuration: WatchdogConfiguration,
        notifier: any ServiceNotifier,
        observer: (@Sendable (Event) -> Void)? = nil,
        healthCheck: @escaping HealthCheck
    ) {
        self.configuration = configuration
        self.notifier = notifier
        self.observer = observer
        self.healthCheck = healthCheck
    }

    deinit {
        task.withLock { $0?.cancel() }
    }

    /// Whether the ping loop is running.
    public var isRunning: Bool {
        task.withLock { $0 != nil }
    }

    /// Starts the ping loop; does nothing when it already runs.
    public func start() {
        task.withLock { task in
            guard task == nil else { return }
            let interval = configuration.pingInterval
            let notifier = notifier
            let healthCheck = healthCheck
            let observer = observer
            task = Task.detached {
                await Self.run(interval: interval, notifier: notifier, healthCheck: healthCheck, observer: observer)
            }
        }
    }

    /// Stops the ping loop. No ping is sent after this returns, except one already being sent.
    public func stop() {
        let running = task.withLock { task in
            defer { task = nil }
            return task
        }
        running?.cancel()
    }

    private static func run(
        interval: Duration,
        notifier: any ServiceNotifier,
        healthCheck: HealthCheck,
        observer: (@Sendable (Event) -> Void)?
    ) async {
        while !Task.isCancelled {
            let healthy = await healthCheck()
            if Task.isCancelled { return }
            if healthy {
                do {
                    try notifier.watchdog()
                    observer?(.pinged)
                } catch {
                    observer?(.pingFailed(error))
                }
            } else {
                observer?(.unhealthy)
            }
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
        }
    }
}
