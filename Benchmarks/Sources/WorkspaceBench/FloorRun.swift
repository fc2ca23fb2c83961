import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The start floor (Benchmarks/StartFloor, which `make bench` builds): a static Swift binary that only sends
/// `READY=1`, started and timed exactly as ``DaemonRun`` starts the daemon, so that the fixed start can be read
/// against what exec, the loader and the Swift runtime cost on the same machine at the same moment.
struct FloorRun {
    let binary: String
    let directory: String

    /// Starts the binary, returns the seconds from its start to `READY=1`, and stops it with SIGTERM (exit 0
    /// required).
    func measure() throws -> Double {
        let notify = try NotifySocket(path: directory + "/floor-notify.sock")
        let start = try TimedStart(
            executable: binary, arguments: ["run"],
            environment: ["PATH": "/usr/bin:/bin", "HOME": directory, "NOTIFY_SOCKET": notify.path], notify: notify,
            timeout: 60)
        let process = start.process
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("the start floor exited with \(process.terminationStatus) after SIGTERM")
        }
        return start.readySeconds
    }
}
