import Foundation

/// The outcome of one child process run to its end: its exit status (128 + signal when killed) and everything it
/// printed, stdout and stderr together.
package struct CommandResult: Sendable {
    /// The exit status.
    package var status: Int32
    /// Stdout and stderr, interleaved as written.
    package var output: String
    /// The child's pid (0 for a result made by hand), for tests that check who sent a message.
    package var pid: pid_t

    /// A result with `status`, `output` and `pid`.
    package init(status: Int32, output: String, pid: pid_t = 0) {
        self.status = status
        self.output = output
        self.pid = pid
    }
}

/// Runs `command` (a program and its arguments; `launcher + [path] + arguments` for a wrapper such as `setpriv`)
/// with `environment` over a minimal one (`PATH`, `HOME=/tmp`), and waits for it to end without holding a thread
/// of the cooperative pool (``RunningProcess/waitForExit(timeout:)``). Throws when it does not end within
/// `timeout`.
///
/// The child inherits nothing else of the test process's environment: no `NOTIFY_SOCKET`, `LISTEN_FDS` or
/// `JOURNAL_STREAM` of a test run under systemd. `descriptors` and `stderrIdentity` are
/// ``RunningProcess/init(_:_:environment:outputPath:descriptors:stderrIdentity:)``'s: parent descriptors placed
/// at chosen numbers, and a variable set to the `device:inode` of the child's stderr.
package func runCommand(
    _ command: [String], environment: [String: String] = [:], descriptors: [(source: Int32, target: Int32)] = [],
    stderrIdentity: String? = nil, timeout: Duration = testDeadline
) async throws -> CommandResult {
    let logPath = "/tmp/tsc-\(UUID().uuidString).log"
    defer { try? FileManager.default.removeItem(atPath: logPath) }
    var variables = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp"]
    variables.merge(environment) { $1 }
    let process = try RunningProcess(
        command[0], Array(command.dropFirst()), environment: variables, outputPath: logPath,
        descriptors: descriptors, stderrIdentity: stderrIdentity)
    guard let status = await process.waitForExit(timeout: timeout) else {
        throw TestSupportError(description: "\(command) did not finish within \(timeout)")
    }
    return CommandResult(status: status, output: process.output, pid: process.pid)
}
