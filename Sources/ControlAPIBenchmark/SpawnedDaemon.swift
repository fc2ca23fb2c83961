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

    /// SIGTERM, wait, remove the directory.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
