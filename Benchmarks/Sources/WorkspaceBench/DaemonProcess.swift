import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The release daemon running on a workspace file in a directory of its own, from `READY=1` until it is stopped:
/// its pid and CPU time for the control API benchmark, a timed SIGTERM → exit for the persistence one.
final class DaemonProcess {
    /// The directory's state directory, control socket and configuration file.
    let stateDirectory: String
    let socketPath: String
    var statePath: String { stateDirectory + "/workspace.json" }
    private let process = Process()
    private let output = Pipe()
    private let notify: NotifySocket

    /// Writes `configuration` and `file` (as `workspace.json`, what the last run left of it removed; the secret
    /// store stays) under `directory`, starts `daemon` there and waits for `READY=1`.
    /// `prepare`, when given, runs on the state directory once the file is written, before the start.
    init(
        daemon: String, directory: String, file: Data, configuration: String, environment: [String: String] = [:],
        prepare: ((String) throws -> Void)? = nil
    ) throws {
        stateDirectory = directory + "/state"
        socketPath = directory + "/control.sock"
        let configPath = directory + "/config.json"
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        try Data(configuration.utf8).write(to: URL(fileURLWithPath: configPath))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: stateDirectory)) ?? []
        for name in names where name.hasPrefix("workspace.json") || name.hasPrefix(".workspace.json") {
            try FileManager.default.removeItem(atPath: stateDirectory + "/" + name)
        }
        try file.write(to: URL(fileURLWithPath: stateDirectory + "/workspace.json"))
        try prepare?(stateDirectory)
        notify = try NotifySocket(path: directory + "/notify.sock")
        process.executableURL = URL(fileURLWithPath: daemon)
        process.arguments = [
            "run", "--config", configPath, "--state-directory", stateDirectory, "--control-socket", socketPath,
        ]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory, "NOTIFY_SOCKET": notify.path].merging(
            environment
        ) { $1 }
        // Its stdout is a pipe that nothing else holds: end of file on it is the moment the process is gone.
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard notify.wait(for: "READY=1", timeout: 600) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw BenchError("the daemon was never ready")
        }
        notify.drain()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The daemon's user + system CPU seconds so far, from `/proc/PID/stat`.
    func cpuSeconds() throws -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { throw BenchError("cannot read the daemon's CPU time") }
        // After "pid (comm)": the state is field 3, utime and stime fields 14 and 15 (clock ticks).
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw BenchError("cannot read the daemon's CPU time")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Sends SIGTERM and returns the seconds until the process is gone (its stdout reaches end of file); throws
    /// unless it exited with status 0.
    func terminate() throws -> Double {
        let reader = output.fileHandleForReading
        let started = ContinuousClock.now
        kill(process.processIdentifier, SIGTERM)
        while !reader.availableData.isEmpty {}
        let elapsed = (ContinuousClock.now - started).seconds
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw BenchError("the daemon did not exit cleanly on SIGTERM (\(process.terminationStatus))")
        }
        return elapsed
    }
}
