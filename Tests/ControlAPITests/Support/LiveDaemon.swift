import Foundation
import TestSupport
import WorkspaceAPI
import WorkspaceClient

#if canImport(Glibc)
import Glibc
#endif

/// The real `workspaced` binary in a ``TestDaemon`` world, with short save timings and a client for its socket.
/// Killed (SIGKILL) and its directory removed when released, unless ``stop()`` ended it first.
final class LiveDaemon: @unchecked Sendable {
    let world: TestDaemon
    var root: String { world.root }
    var socketPath: String { world.socketPath }
    var stateDirectory: String { world.stateDirectory }
    var statePath: String { world.statePath }

    /// Prepares the directory and config; `debounce`/`maximumDelay` are the save timings in milliseconds (short, so
    /// plain changes reach the disk soon too).
    init(debounce: Int = 200, maximumDelay: Int = 1000, extraConfig: String = "") throws {
        let save = #"{"save": {"debounceMilliseconds": \#(debounce), "maximumDelayMilliseconds": \#(maximumDelay)}"#
        world = try TestDaemon(prefix: "wsa", config: save + extraConfig + "}")
    }

    /// A client for the daemon's socket.
    func client(timeout: Duration = .seconds(30)) -> WorkspaceClient {
        WorkspaceClient(socketPath: socketPath, timeout: timeout)
    }

    /// Starts `workspaced run` and waits until `/v1/status` answers. Without `NOTIFY_SOCKET`: nothing here drains
    /// the notify socket, and a daemon whose notify queue is full blocks the thread that finished a save.
    func start() async throws {
        try world.start(output: "daemon.log", notifying: false)
        guard await eventually({ (try? await client(timeout: .seconds(2)).status()) != nil }) else {
            throw TestSupportError(description: "workspaced did not answer within \(testDeadline):\n\(log)")
        }
    }

    /// Sends SIGTERM and waits for the exit status.
    @discardableResult
    func stop() async -> Int32? { await world.stop() }

    /// Kills the daemon with SIGKILL, as a crash or the OOM killer would, and waits until it is gone.
    func kill() async { await world.stop(with: SIGKILL) }

    /// The daemon's output so far.
    var log: String { world.log }

    /// The state file's bytes, `nil` when there is none yet.
    func stateBytes() -> Data? { try? world.stateBytes() }

    /// The state file as JSON (empty when there is none).
    func stateObject() -> [String: Any] { stateBytes().flatMap { try? jsonObject($0) } ?? [:] }

    /// The ids of the records of `key` (`projects` or `favorites`) in the state file.
    func idsOnDisk(_ key: String) -> Set<String> {
        let records = stateObject()[key] as? [[String: Any]] ?? []
        return Set(records.compactMap { ($0["id"] as? String)?.lowercased() })
    }
}
