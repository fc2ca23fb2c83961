/// Tells the service manager about the service's state (the sd_notify protocol).
///
/// Implementations send all fields of one call in a single datagram, in order, and throw when delivery fails.
/// ``LibsystemdNotifier`` talks to systemd; ``RecordingNotifier`` is the test double.
public protocol ServiceNotifier: Sendable {
    /// Sends `fields` as one datagram.
    func send(_ fields: [NotifyField]) throws(NotifyError)
}

extension ServiceNotifier {
    /// `READY=1`, with `STATUS=…` in the same datagram when a status is given.
    public func ready(status: String? = nil) throws(NotifyError) {
        try send([.ready] + (status.map { [NotifyField.status($0)] } ?? []))
    }

    /// `STATUS=…` alone.
    public func status(_ text: String) throws(NotifyError) {
        try send([.status(text)])
    }

    /// `STOPPING=1`, with `STATUS=…` in the same datagram when a status is given.
    public func stopping(status: String? = nil) throws(NotifyError) {
        try send([.stopping] + (status.map { [NotifyField.status($0)] } ?? []))
    }

    /// `RELOADING=1` and `MONOTONIC_USEC=…` (now) in one datagram, as systemd expects them together, with
    /// `STATUS=…` when a status is given. Send ``ready(status:)`` when the reload is done.
    public func reloading(status: String? = nil) throws(NotifyError) {
        try send([.reloading, .monotonicNow()] + (status.map { [NotifyField.status($0)] } ?? []))
    }

    /// `WATCHDOG=1`.
    public func watchdog() throws(NotifyError) {
        try send([.watchdog])
    }

    /// `EXTEND_TIMEOUT_USEC=…`: the current step may take `duration` more (rounded up to whole microseconds).
    public func extendTimeout(by duration: Duration) throws(NotifyError) {
        try send([.extendTimeout(microseconds: duration.wholeMicrosecondsRoundedUp)])
    }

    /// `ERRNO=…` with `STATUS=…` in the same datagram when a status is given: why the service failed.
    public func failure(errno code: Int32, status: String? = nil) throws(NotifyError) {
        try send((status.map { [NotifyField.status($0)] } ?? []) + [.errno(code)])
    }
}

extension Duration {
    /// The duration in microseconds, rounded up; zero for negative durations.
    var wholeMicrosecondsRoundedUp: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, !(seconds == 0 && attoseconds <= 0) else { return 0 }
        let micros = UInt64(seconds) * 1_000_000 + UInt64(attoseconds / 1_000_000_000_000)
        return attoseconds % 1_000_000_000_000 == 0 ? micros : micros + 1
    }
}
