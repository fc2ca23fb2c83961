#if canImport(Glibc)
import Glibc
#endif

/// Where the journal log handler writes.
public enum LogOutput: Sendable, Equatable {
    /// Native journal entries through `sd_journal_sendv`: every field, multi-line messages as one entry.
    case journal
    /// One line per event on stderr with a `<N>` syslog priority prefix, for systemd capturing stderr without
    /// the journal stream (for example `StandardError=file:…` or a stream journald does not own).
    case prefixedStderr
    /// A plain human format on stderr, for a terminal or anything outside systemd.
    case humanStderr

    /// Picks the output for a process: the journal when stderr is the journal stream named by
    /// `JOURNAL_STREAM`; `<N>`-prefixed stderr when otherwise under systemd (`INVOCATION_ID` or
    /// `JOURNAL_STREAM` set); the human format otherwise.
    ///
    /// - Parameters:
    ///   - environment: the variables to inspect.
    ///   - stderrIdentity: the `(device, inode)` of stderr, `nil` when it cannot be determined.
    public static func detect(
        environment: ServiceEnvironment,
        stderrIdentity: (device: UInt64, inode: UInt64)?
    ) -> LogOutput {
        if let stream = environment.journalStream, let identity = stderrIdentity {
            let parts = stream.split(separator: ":", omittingEmptySubsequences: false)
            if parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]),
                device == identity.device, inode == identity.inode
            {
                return .journal
            }
        }
        return environment.isUnderSystemd ? .prefixedStderr : .humanStderr
    }

    /// ``detect(environment:stderrIdentity:)`` for the current process: its environment and `fstat(2)`.
    public static func detectForProcess() -> LogOutput {
        detect(environment: .process(), stderrIdentity: fileIdentity(of: STDERR_FILENO))
    }

    /// The `(device, inode)` of an open descriptor, `nil` when `fstat` fails.
    public static func fileIdentity(of fileDescriptor: Int32) -> (device: UInt64, inode: UInt64)? {
        var info = stat()
        guard fstat(fileDescriptor, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }
}
