import FoundationEssentials
import StateStore
import Synchronization
import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// Keeps the systemd `STATUS=` line current with the saves: while saves fail it says so
/// (`saving FAILED since 12:03:01 UTC: ENOSPC (No space left on device)`), and once a save succeeds again it
/// returns to the line the daemon became ready with, without a restart.
final class SaveStatusLine: Sendable {
    private struct State {
        var normal: String?
        var failingSince: Date?
        var failingReason: String?
    }

    private let notifier: any ServiceNotifier
    private let now: @Sendable () -> Date
    private let state = Mutex(State())

    /// A status line sent through `notifier`, timed by `now`.
    init(notifier: any ServiceNotifier, now: @escaping @Sendable () -> Date = { Date() }) {
        self.notifier = notifier
        self.now = now
    }

    /// The line READY=1 was sent with: the one to return to after a recovery.
    func ready(_ line: String) {
        state.withLock { $0.normal = line }
    }

    /// Since when the saves fail, while they do.
    var failingSince: Date? { state.withLock { $0.failingSince } }

    /// Makes `line` the one to return to after a recovery, and returns the line to show now: `line`, or the failing
    /// line while saves fail (a reload must not hide a failure).
    func replaceNormal(_ line: String) -> String {
        state.withLock { state in
            state.normal = line
            guard let since = state.failingSince, let reason = state.failingReason else { return line }
            return Self.failingLine(since: since, reason: reason)
        }
    }

    /// Updates the line for a persistence event (an observer of the state's engine).
    func observe(_ event: PersistenceEvent) {
        let line: String? = state.withLock { state in
            switch event {
            case .saveFailed(let error, _, _):
                let since = state.failingSince ?? now()
                let reason = Self.reason(error)
                state.failingSince = since
                state.failingReason = reason
                return Self.failingLine(since: since, reason: reason)
            case .saveRecovered:
                state.failingSince = nil
                state.failingReason = nil
                return state.normal
            case .saved, .journalFailed, .journalResumed:
                return nil
            }
        }
        if let line { try? notifier.status(line) }
    }

    /// The line while saves fail.
    static func failingLine(since: Date, reason: String) -> String {
        "saving FAILED since \(clock(since)) UTC: \(reason)"
    }

    /// `HH:MM:SS` in UTC.
    static func clock(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))"
    }

    /// `ENOSPC (No space left on device)` when the failure comes from a system call, else the error.
    static func reason(_ error: PersistenceError) -> String {
        guard case .saveFailed(_, _, let underlying) = error else { return "\(error)" }
        let failed: FileSystemError? =
            switch underlying {
            case .writeFailed(let write): write.underlying
            case .backupFailed(let call), .readFailed(let call), .lockFailed(let call): call
            case .backupCopyFailed(_, let copy): copy.underlying
            default: nil
            }
        guard let failed else { return "\(underlying)" }
        let text = String(cString: strerror(failed.errno))
        return errnoNames[failed.errno].map { "\($0) (\(text))" } ?? "errno \(failed.errno) (\(text))"
    }

    private static let errnoNames: [Int32: String] = [
        EIO: "EIO", ENOSPC: "ENOSPC", EDQUOT: "EDQUOT", EROFS: "EROFS", EACCES: "EACCES", EPERM: "EPERM",
        ENOENT: "ENOENT", EMFILE: "EMFILE", ENFILE: "ENFILE", EEXIST: "EEXIST", EXDEV: "EXDEV", EINTR: "EINTR",
        ENOTDIR: "ENOTDIR", EISDIR: "EISDIR", EBADF: "EBADF", ENOMEM: "ENOMEM", EFBIG: "EFBIG",
    ]
}
