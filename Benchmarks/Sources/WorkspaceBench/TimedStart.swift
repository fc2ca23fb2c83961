import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A process started and timed from its start to its `READY=1`, its output discarded: how ``DaemonRun`` starts
/// the daemon and ``FloorRun`` the start floor, so that the two times compare.
struct TimedStart {
    /// The running process; the caller stops it.
    let process: Process
    /// Seconds from the start of the process to `READY=1`.
    let readySeconds: Double

    /// Starts `executable` and waits for `READY=1` on `notify`; kills the process and throws when it does not
    /// come within `timeout` seconds.
    init(
        executable: String, arguments: [String], environment: [String: String], notify: NotifySocket,
        timeout: Double
    ) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let started = ContinuousClock.now
        try process.run()
        guard notify.wait(for: "READY=1", timeout: timeout) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw BenchError("\(executable) was never ready")
        }
        readySeconds = (ContinuousClock.now - started).seconds
    }
}
