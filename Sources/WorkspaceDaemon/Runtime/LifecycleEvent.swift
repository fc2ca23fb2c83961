/// What can happen to a running daemon from outside, in the order it happens.
package enum LifecycleEvent: Sendable, Equatable {
    /// SIGTERM or SIGINT: flush and exit.
    case stop(signal: Int32)
    /// SIGHUP: re-read the configuration.
    case reload
}
