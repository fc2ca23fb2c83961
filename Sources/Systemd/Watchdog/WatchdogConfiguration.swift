import CSystemd

/// How often the service manager expects a keep-alive ping (`WatchdogSec=`).
public struct WatchdogConfiguration: Sendable, Equatable {
    /// The watchdog timeout: systemd restarts (or kills) the service when no ping arrives within it.
    public var timeout: Duration

    /// The time between pings: half the timeout, as sd_watchdog_enabled(3) recommends.
    public var pingInterval: Duration { timeout / 2 }

    /// Creates a configuration with an explicit timeout (for tests, or a watchdog driven by other means).
    public init(timeout: Duration) {
        self.timeout = timeout
    }

    /// Reads `WATCHDOG_USEC` and `WATCHDOG_PID` from the process environment with `sd_watchdog_enabled`.
    ///
    /// - Returns: `nil` when the watchdog is off: `WATCHDOG_USEC` unset, or `WATCHDOG_PID` names another process.
    /// - Throws: ``WatchdogError/invalidEnvironment(errno:)`` when the variables cannot be parsed.
    public static func fromProcessEnvironment() throws(WatchdogError) -> WatchdogConfiguration? {
        var microseconds: UInt64 = 0
        let result = sd_watchdog_enabled(0, &microseconds)
        if result < 0 { throw .invalidEnvironment(errno: -result) }
        guard result > 0, microseconds > 0 else { return nil }
        return WatchdogConfiguration(timeout: .microseconds(Int64(clamping: microseconds)))
    }
}

/// The watchdog environment could not be used.
public enum WatchdogError: Error, Equatable, CustomStringConvertible {
    /// `sd_watchdog_enabled` rejected `WATCHDOG_USEC`/`WATCHDOG_PID` with `errno` (usually `EINVAL`).
    case invalidEnvironment(errno: Int32)

    /// A sentence naming the variables at fault.
    public var description: String {
        switch self {
        case .invalidEnvironment(let errno):
            return "WATCHDOG_USEC/WATCHDOG_PID are not valid (sd_watchdog_enabled: errno \(errno))"
        }
    }
}
