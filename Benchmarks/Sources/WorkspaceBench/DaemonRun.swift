import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The release daemon started on a copy of a workspace file: the time from its start to `READY=1`, its memory
/// then, and its memory once a durable change has saved the whole state.
struct DaemonRun {
    /// What one start measured.
    struct Result: Codable {
        /// Seconds from the start of the process to `READY=1`.
        var readySeconds: Double
        /// Peak and resident memory at `READY=1`.
        var atReady: ProcessMemory
        /// Peak and resident memory once the first durable change after `READY=1` is saved.
        var afterSave: ProcessMemory
    }

    let daemon: String
    let directory: String
    var stateDirectory: String { directory + "/state" }
    var socketPath: String { directory + "/control.sock" }
    var configPath: String { directory + "/config.json" }

    /// A run directory for `daemon` under `directory`; a first start there creates the secret store, so that the
    /// measured starts open it as an installed daemon does.
    init(daemon: String, directory: String) throws {
        self.daemon = daemon
        self.directory = directory
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: configPath))
        _ = try measure(Data(#"{"version": 4, "minReaderVersion": 4, "projects": [], "favorites": []}"#.utf8))
    }

    /// Starts the daemon on `file` (as `workspace.json`, whatever was there before removed: its journal, its
    /// history and its backups too, so every start is a first start) and measures it.
    func measure(_ file: Data) throws -> Result {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: stateDirectory)) ?? []
        for name in names where name.hasPrefix("workspace.json") || name.hasPrefix(".workspace.json") {
            try FileManager.default.removeItem(atPath: stateDirectory + "/" + name)
        }
        try file.write(to: URL(fileURLWithPath: stateDirectory + "/workspace.json"))
        return try start(change: true)
    }

    /// Starts the daemon again on the state directory as its last clean stop left it (the file, the journal's
    /// segment, the history directory), as a `systemctl restart` does, and measures it up to `READY=1`; no change
    /// is made, so the next restart meets the same files. `afterSave` repeats `atReady`.
    func restart() throws -> Result {
        try start(change: false)
    }

    /// Starts the daemon on the state directory as it is; with `change`, makes one durable change after `READY=1`
    /// and reads the memory once it is saved.
    private func start(change: Bool) throws -> Result {
        let notify = try NotifySocket(path: directory + "/notify.sock")
        let start = try TimedStart(
            executable: daemon,
            arguments: [
                "run", "--config", configPath, "--state-directory", stateDirectory, "--control-socket", socketPath,
            ],
            environment: ["PATH": "/usr/bin:/bin", "HOME": directory, "NOTIFY_SOCKET": notify.path], notify: notify,
            timeout: 600)
        let process = start.process
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        let pid = String(process.processIdentifier)
        guard let atReady = ProcessMemory.of(pid) else { throw BenchError("cannot read the daemon's memory") }
        notify.drain()
        var afterSave = atReady
        if change {
            let status = try ControlRequest.send(
                "POST", "/v1/favorites?durable=true", body: #"{"name": "bench", "path": "/bench"}"#,
                socketPath: socketPath)
            guard status == 201 else { throw BenchError("the durable change was answered \(status)") }
            guard let settled = Self.settledMemory(pid) else { throw BenchError("cannot read the daemon's memory") }
            afterSave = settled
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("the daemon exited with \(process.terminationStatus) after SIGTERM")
        }
        return Result(readySeconds: start.readySeconds, atReady: atReady, afterSave: afterSave)
    }
}

extension DaemonRun {
    /// The daemon's memory once the save is behind it: the durable answer comes before the save's observer has
    /// run (the daemon gives the save's freed memory back there), so read until two readings 100 ms apart agree
    /// within a megabyte, for at most two seconds: what an operator then sees in `systemctl status`.
    static func settledMemory(_ pid: String) -> ProcessMemory? {
        guard var last = ProcessMemory.of(pid) else { return nil }
        for _ in 0..<20 {
            usleep(100_000)
            guard let next = ProcessMemory.of(pid) else { return nil }
            defer { last = next }
            if abs(next.resident - last.resident) < 1_000_000 { return next }
        }
        return last
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
