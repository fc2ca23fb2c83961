#if canImport(Glibc)
import Glibc
#endif

/// What can happen to a running daemon from outside, in the order it happens.
package enum LifecycleEvent: Sendable, Equatable {
    /// SIGTERM or SIGINT: flush and exit.
    case stop(signal: Int32)
    /// SIGHUP: re-read the configuration.
    case reload

    /// The signals the daemon's ``SignalSources`` receive: SIGTERM, SIGINT and SIGHUP.
    package static let signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    /// The event of a signal of ``signals``: SIGHUP reloads, the others stop.
    package init(signal: Int32) {
        self = signal == SIGHUP ? .reload : .stop(signal: signal)
    }

    /// The signal handler until the daemon's lifecycle takes over: a stop exits at once with status 0, before
    /// anything was accepted; a SIGHUP is ignored (there is no configuration to re-read yet).
    package static func beforeStart(_ signal: Int32) {
        if signal != SIGHUP { exit(0) }
    }
}
