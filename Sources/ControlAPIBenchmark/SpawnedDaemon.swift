import Foundation

/// The `workspaced` built next to this executable, running on a temporary state directory until ``stop()``.
final class SpawnedDaemon {
    /// Its control socket.
    let socketPath: String
    private let directory: URL
    private let process = Process()

    init() throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("workspaced")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw BenchmarkError("no workspaced at \(binary.path): build it (swift build -c release) or pass --socket")
        }
        directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("wsbench-\(getpid())")
        let state = directory.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("config.json")
        try Data(#"{"save": {"debounceMilliseconds": 500, "maximumDelayMilliseconds": 5000}}"#.utf8).write(to: config)
        socketPath = directory.appendingPathComponent("c.sock").path
        process.executableURL = binary
        process.arguments = [
            "run", "--config", config.path, "--state-directory", state.path, "--control-socket", socketPath,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// The daemon's user + system CPU seconds so far, from `/proc/PID/stat`; `nil` when unreadable.
    func cpuTime() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": state is field 3, utime and stime are fields 14 and 15 (in clock ticks).
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// SIGTERM, wait, remove the directory.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
