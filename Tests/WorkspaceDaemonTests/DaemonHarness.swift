import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A temporary world for one `workspaced` process: a state directory, a notify socket, a config file, and the
/// running binary with `NOTIFY_SOCKET` pointing at the socket.
final class DaemonHarness {
    let root: String
    let notify: NotifyListener
    var process: RunningProcess?

    var stateDirectory: String { root + "/state" }
    var statePath: String { stateDirectory + "/workspace.json" }
    var configPath: String { root + "/config.json" }
    var socketPath: String { root + "/c.sock" }
    static var binary: String { ProductPaths.executable("workspaced") }

    init() throws {
        var template = Array("/tmp/wsd-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestSupportError(description: "mkdtemp: \(errno)") }
        root = String(cString: made)
        try FileManager.default.createDirectory(atPath: root + "/state", withIntermediateDirectories: true)
        notify = try NotifyListener(path: root + "/notify.sock")
        try writeConfig(#"{"save": {"debounceMilliseconds": 60000, "maximumDelayMilliseconds": 60000}}"#)
    }

    deinit {
        process = nil
        try? FileManager.default.removeItem(atPath: root)
    }

    func writeConfig(_ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: configPath))
    }

    func writeState(_ data: Data) throws {
        try data.write(to: URL(fileURLWithPath: statePath))
    }

    func stateBytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: statePath)) }

    /// The lineage stored in the state file (`""` when it stores none).
    func lineage() throws -> String {
        (try JSONSerialization.jsonObject(with: stateBytes()) as? [String: Any])?["lineage"] as? String ?? ""
    }

    /// Starts `workspaced run` (or other arguments) with the harness's paths; `launcher`, when given, runs it
    /// (e.g. `strace … --`), and is the process returned.
    @discardableResult
    func start(
        _ extra: [String] = [], environment: [String: String] = [:], output: String = "out.log",
        launcher: [String] = []
    ) throws
        -> RunningProcess
    {
        var variables = ["PATH": "/usr/bin:/bin", "NOTIFY_SOCKET": notify.path, "HOME": root]
        variables.merge(environment) { $1 }
        let arguments =
            ["run", "--config", configPath, "--state-directory", stateDirectory, "--control-socket", socketPath] + extra
        let command = launcher + [Self.binary] + arguments
        let running = try RunningProcess(
            command[0], Array(command.dropFirst()), environment: variables, outputPath: root + "/" + output)
        process = running
        return running
    }

    /// Runs `workspaced` with `arguments` to completion, without blocking a thread while the tool runs, and
    /// returns its status and output.
    func runToolAsync(
        _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> (status: Int32, output: String) {
        var variables = ["PATH": "/usr/bin:/bin", "HOME": root]
        variables.merge(environment) { $1 }
        let running = try RunningProcess(
            Self.binary, arguments, environment: variables, outputPath: root + "/tool-\(UUID().uuidString).log")
        guard let status = await running.waitForExit(timeout: .seconds(30)) else {
            throw TestSupportError(description: "workspaced \(arguments) did not finish")
        }
        return (status, running.output)
    }

    /// Every notify datagram so far (accumulated across calls).
    private(set) var datagrams: [String] = []

    func messages() -> [String] {
        datagrams += notify.drain().map(\.text)
        return datagrams
    }

    /// Waits until a datagram satisfies `predicate`, without blocking a thread: the task sleeps between polls.
    func waitForMessageAsync(timeout: Duration = .seconds(40), _ predicate: (String) -> Bool) async -> Bool {
        await eventually(timeout: timeout) { messages().contains(where: predicate) }
    }
}
