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
    /// The shipped daemon.
    static var binary: String { ProductPaths.executable("workspaced") }
    /// The daemon with test hooks (Sources/workspaced-testing), which alone reads the `WSD_TEST_*` variables.
    static var testingBinary: String { ProductPaths.executable("workspaced-testing") }

    /// The binary a process with `environment` runs: the one with test hooks when a `WSD_TEST_*` variable asks for
    /// one (the shipped one would ignore it), else the shipped one.
    static func binary(for environment: [String: String]) -> String {
        environment.keys.contains { $0.hasPrefix("WSD_TEST_") } ? testingBinary : binary
    }

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

    /// Starts `workspaced run` (or other arguments) with the harness's paths, `workspaced-testing` when
    /// `environment` asks for a test hook; `launcher`, when given, runs it (e.g. `strace … --`), and is the process
    /// returned.
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
        let command = launcher + [Self.binary(for: environment)] + arguments
        let running = try RunningProcess(
            command[0], Array(command.dropFirst()), environment: variables, outputPath: root + "/" + output)
        process = running
        return running
    }

    /// Runs `workspaced` (`workspaced-testing` when `environment` asks for a test hook) with `arguments` to
    /// completion, without blocking a thread while the tool runs, and returns its status and output.
    func runToolAsync(
        _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> (status: Int32, output: String) {
        var variables = ["PATH": "/usr/bin:/bin", "HOME": root]
        variables.merge(environment) { $1 }
        let output = root + "/tool-\(UUID().uuidString).log"
        let running = try RunningProcess(
            Self.binary(for: environment), arguments, environment: variables, outputPath: output)
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
