import CSystemd

/// Sends notifications with libsystemd's `sd_notify` to the socket named by the process's `NOTIFY_SOCKET`.
///
/// When `NOTIFY_SOCKET` is unset (not started by systemd, or not `Type=notify`) every call is a no-op.
/// Delivery failures (for example a socket path that does not exist) throw ``NotifyError/send(errno:message:)``.
public struct LibsystemdNotifier: ServiceNotifier {
    /// Creates a notifier for the current process.
    public init() {}

    /// Whether notifications go anywhere: `NOTIFY_SOCKET` is set in the process environment.
    public var isEnabled: Bool {
        ServiceEnvironment.process().notifySocket != nil
    }

    /// Sends `fields` as one datagram with `sd_notify`.
    public func send(_ fields: [NotifyField]) throws(NotifyError) {
        guard !fields.isEmpty else { throw .empty }
        let message = NotifyField.datagram(fields)
        let result = sd_notify(0, message)
        if result < 0 { throw .send(errno: -result, message: message) }
    }
}
