import Foundation
import TestSupport
import WorkspaceAPI
import WorkspaceClient

#if canImport(Glibc)
import Glibc
#endif

/// The real `workspaced` binary on a temporary state directory and control socket. Killed (SIGKILL) and its
/// directory removed when released, unless ``stop()`` ended it first.
final class LiveDaemon: @unchecked Sendable {
    let root: String
    var socketPath: String { root + "/c.sock" }
    var stateDirectory: String { root + "/state" }
    var statePath: String { stateDirectory + "/workspace.json" }
    private var process: RunningProcess?

    /// Prepares the directory and config; `debounce`/`maximumDelay` are the save timings in milliseconds (short, so
    /// plain changes reach the disk soon too).
    init(debounce: Int = 200, maximumDelay: Int = 1000, extraConfig: String = "") throws {
        var template = Array("/tmp/wsa-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestSupportError(description: "mkdtemp: \(errno)") }
        root = String(cString: made)
        // Other uids must reach the socket to be refused by the daemon (rather than by the directory's mode).
        chmod(root, 0o755)
        try FileManager.default.createDirectory(atPath: root + "/state", withIntermediateDirectories: true)
        let config = """
            {"save": {"debounceMilliseconds": \(debounce), "maximumDelayMilliseconds": \(maximumDelay)}\(extraConfig)}
            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: root + "/config.json"))
    }

    deinit {
        process = nil
        try? FileManager.default.removeItem(atPath: root)
    }

    /// A client for the daemon's socket.
    func client(timeout: Duration = .seconds(30)) -> WorkspaceClient {
        WorkspaceClient(socketPath: socketPath, timeout: timeout)
    }

    /// Starts `workspaced run` and waits until `/v1/status` answers.
    func start() async throws {
        let arguments = [
            "run", "--config", root + "/config.json", "--state-directory", stateDirectory, "--control-socket",
            socketPath,
        ]
        process = try RunningProcess(
            ProductPaths.executable("workspaced"), arguments,
            environment: ["PATH": "/usr/bin:/bin", "HOME": root], outputPath: root + "/daemon.log")
        // Asks first and looks at the clock after: a task that resumes late (a busy cooperative pool) still gets
        // its answer instead of finding the deadline passed without having asked again.
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            if (try? await client(timeout: .seconds(2)).status()) != nil { return }
            if ContinuousClock.now >= deadline { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestSupportError(description: "workspaced did not answer within 20 s:\n\(log)")
    }

    /// Sends SIGTERM and waits for the exit status without blocking a thread while the daemon flushes and exits
    /// (a blocked thread of the cooperative pool stalls every other test in the process).
    @discardableResult
    func stop() async -> Int32? {
        guard let process else { return nil }
        process.send(SIGTERM)
        return await process.waitForExit(timeout: .seconds(30))
    }

    /// Kills the daemon with SIGKILL, as a crash or the OOM killer would, and waits until it is gone.
    func kill() async {
        guard let process else { return }
        process.send(SIGKILL)
        _ = await process.waitForExit(timeout: .seconds(30))
    }

    /// The daemon's output so far.
    var log: String { (try? String(contentsOfFile: root + "/daemon.log", encoding: .utf8)) ?? "" }

    /// The state file's bytes, `nil` when there is none yet.
    func stateBytes() -> Data? { FileManager.default.contents(atPath: statePath) }

    /// The state file as JSON (empty when there is none).
    func stateObject() -> [String: Any] {
        guard let bytes = stateBytes() else { return [:] }
        return ((try? JSONSerialization.jsonObject(with: bytes)) as? [String: Any]) ?? [:]
    }

    /// The ids of the records of `key` (`projects` or `favorites`) in the state file.
    func idsOnDisk(_ key: String) -> Set<String> {
        let records = stateObject()[key] as? [[String: Any]] ?? []
        return Set(records.compactMap { ($0["id"] as? String)?.lowercased() })
    }
}
