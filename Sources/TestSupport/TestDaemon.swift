import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The one way the process tests run the daemon: `workspaced` (or `workspaced-testing`) in a world of its own
/// under `/tmp` (a state directory, a config file, a control socket, a notify socket standing in for systemd's),
/// with an exact environment and its output in a log file, stopped with a signal and its exit status collected.
/// The running daemon is killed (SIGKILL) and the directory removed when the world is released.
package final class TestDaemon {
    /// The world's directory (mode 0755, so that other uids reach the socket and are refused by the daemon).
    package let root: String
    /// The notify socket the daemon is started with (`NOTIFY_SOCKET`).
    package let notify: NotifyListener
    /// The last daemon started, running or not.
    package private(set) var process: RunningProcess?
    /// Every notify datagram so far, accumulated across calls.
    private var datagrams: [String] = []

    /// The state directory the daemon runs on.
    package var stateDirectory: String { root + "/state" }
    /// Its state file.
    package var statePath: String { stateDirectory + "/workspace.json" }
    /// The config file it reads.
    package var configPath: String { root + "/config.json" }
    /// Its control socket.
    package var socketPath: String { root + "/c.sock" }
    /// The last daemon's output so far.
    package var log: String { process?.output ?? "" }

    /// The shipped daemon.
    package static var binary: String { ProductPaths.executable("workspaced") }
    /// The daemon with test hooks (Sources/workspaced-testing), which alone reads the `WSD_TEST_*` variables.
    package static var testingBinary: String { ProductPaths.executable("workspaced-testing") }

    /// The binary a process with `environment` runs: the one with test hooks when a `WSD_TEST_*` variable asks for
    /// one (the shipped one would ignore it), else the shipped one.
    package static func binary(for environment: [String: String]) -> String {
        environment.keys.contains { $0.hasPrefix("WSD_TEST_") } ? testingBinary : binary
    }

    /// Saves held for a minute: a test sees a save only when it asks for one (a durable change, a stop).
    package static let slowSaves = #"{"save": {"debounceMilliseconds": 60000, "maximumDelayMilliseconds": 60000}}"#

    /// Makes `/tmp/<prefix>-XXXXXX` with an empty state directory, binds the notify socket and writes `config`.
    package init(prefix: String = "wsd", config: String = TestDaemon.slowSaves) throws {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestSupportError(description: "mkdtemp: \(errno)") }
        root = String(cString: made)
        chmod(root, 0o755)
        try FileManager.default.createDirectory(atPath: root + "/state", withIntermediateDirectories: true)
        notify = try NotifyListener(path: root + "/notify.sock")
        try writeConfig(config)
    }

    /// Removes the directory, unless `WSD_KEEP_TEST_ROOTS` is set in the test's environment: then it stays, with the
    /// daemon's logs and state, for a look after a failure.
    deinit {
        process = nil
        guard getenv("WSD_KEEP_TEST_ROOTS") == nil else { return }
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Replaces the config file.
    package func writeConfig(_ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: configPath))
    }

    /// Replaces the state file.
    package func writeState(_ data: Data) throws {
        try data.write(to: URL(fileURLWithPath: statePath))
    }

    /// The state file's bytes.
    package func stateBytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: statePath)) }

    /// Starts `workspaced run` (or other arguments) on the world's paths, `workspaced-testing` when `environment`
    /// asks for a test hook; its output goes to `output` in the world. `notifying: false` starts it without
    /// `NOTIFY_SOCKET`: a daemon whose datagrams nobody drains blocks once the socket's queue is full. `launcher`,
    /// when given, runs it (e.g. `strace … --`) and is the process returned.
    @discardableResult
    package func start(
        _ extra: [String] = [], environment: [String: String] = [:], output: String = "out.log",
        launcher: [String] = [], notifying: Bool = true
    ) throws -> RunningProcess {
        var variables = ["PATH": "/usr/bin:/bin", "HOME": root]
        if notifying { variables["NOTIFY_SOCKET"] = notify.path }
        variables.merge(environment) { $1 }
        let arguments =
            ["run", "--config", configPath, "--state-directory", stateDirectory, "--control-socket", socketPath] + extra
        let command = launcher + [Self.binary(for: environment)] + arguments
        let running = try RunningProcess(
            command[0], Array(command.dropFirst()), environment: variables, outputPath: root + "/" + output)
        process = running
        return running
    }

    /// Starts the daemon and waits for its next READY=1 (the notify socket keeps the earlier starts' too) or its
    /// exit: the process, whether it became ready and still runs, and its exit status when it exited instead.
    package func startUntilReadyOrExit(
        _ extra: [String] = [], environment: [String: String] = [:], output: String = "out.log"
    ) async throws -> (process: RunningProcess, ready: Bool, exit: Int32?) {
        let before = count("READY=1")
        let process = try start(extra, environment: environment, output: output)
        let ready = await eventually { count("READY=1") > before || process.exitStatus != nil }
        let exit = process.exitStatus
        return (process, ready && exit == nil, exit)
    }

    /// Sends `signal` to the last daemon started and waits for its exit status (`nil`: none started, or still
    /// running after `timeout`).
    @discardableResult
    package func stop(with signal: Int32 = SIGTERM, timeout: Duration = testDeadline) async -> Int32? {
        await process?.stop(with: signal, timeout: timeout)
    }

    /// Runs `workspaced` (`workspaced-testing` when `environment` asks for a test hook) with `arguments` to its
    /// end, as an offline tool, and returns its status and output.
    package func runTool(_ arguments: [String], environment: [String: String] = [:]) async throws -> CommandResult {
        var variables = ["HOME": root]
        variables.merge(environment) { $1 }
        return try await runCommand([Self.binary(for: environment)] + arguments, environment: variables)
    }

    /// Every notify datagram so far, oldest first.
    package func messages() -> [String] {
        datagrams += notify.drain().map(\.text)
        return datagrams
    }

    /// How many datagrams so far hold the line `line` (`READY=1`, `STATUS=loading`…).
    package func count(_ line: String) -> Int {
        messages().filter { $0.split(separator: "\n").contains(Substring(line)) }.count
    }

    /// Waits until a datagram satisfies `predicate`; whether one did within `timeout`.
    package func waitForMessage(timeout: Duration = testDeadline, _ predicate: (String) -> Bool) async -> Bool {
        await eventually(timeout: timeout) { messages().contains(where: predicate) }
    }

    /// Waits until a datagram says READY=1.
    package func becomesReady(timeout: Duration = testDeadline) async -> Bool {
        await waitForMessage(timeout: timeout) { $0.split(separator: "\n").contains("READY=1") }
    }
}
