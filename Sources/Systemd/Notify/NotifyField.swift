import Glibc

/// One `KEY=value` assignment of the sd_notify protocol.
public enum NotifyField: Sendable, Equatable {
    /// `READY=1`: start-up is finished (or a reload is finished).
    case ready
    /// `STATUS=…`: a one-line, human-readable status shown by `systemctl status`.
    case status(String)
    /// `STOPPING=1`: the service is shutting down.
    case stopping
    /// `RELOADING=1`: the service is reloading its configuration; send ``ready`` when done.
    case reloading
    /// `MONOTONIC_USEC=…`: the `CLOCK_MONOTONIC` time of a reload request, sent with ``reloading`` so systemd
    /// (253 and later, `Type=notify-reload`) can tell this reload from an earlier one; older versions ignore it.
    case monotonicMicroseconds(UInt64)
    /// `WATCHDOG=1`: keep-alive ping for `WatchdogSec=`.
    case watchdog
    /// `EXTEND_TIMEOUT_USEC=…`: ask for more time for the current start, stop or reload step.
    case extendTimeout(microseconds: UInt64)
    /// `ERRNO=…`: the errno-style reason of a failure, shown by `systemctl status`.
    case errno(Int32)

    /// The `KEY=value` text of this field.
    ///
    /// Line breaks inside a status are replaced by spaces: the protocol is line-based and a newline would end
    /// the assignment early.
    public var assignment: String {
        switch self {
        case .ready: return "READY=1"
        case .status(let text):
            let oneLine = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
                .joined(separator: " ")
            return "STATUS=" + oneLine
        case .stopping: return "STOPPING=1"
        case .reloading: return "RELOADING=1"
        case .monotonicMicroseconds(let microseconds): return "MONOTONIC_USEC=\(microseconds)"
        case .watchdog: return "WATCHDOG=1"
        case .extendTimeout(let microseconds): return "EXTEND_TIMEOUT_USEC=\(microseconds)"
        case .errno(let code): return "ERRNO=\(code)"
        }
    }

    /// The text of one notification datagram: the assignments of `fields`, newline-separated, in order.
    public static func datagram(_ fields: [NotifyField]) -> String {
        fields.map(\.assignment).joined(separator: "\n")
    }
}

extension NotifyField {
    /// `MONOTONIC_USEC=` with the current `CLOCK_MONOTONIC` time, as `sd_notify_reloading` sends it.
    public static func monotonicNow() -> NotifyField {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return .monotonicMicroseconds(UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000)
    }
}
