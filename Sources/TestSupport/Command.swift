import Foundation

/// The outcome of one child process run to its end: its exit status (128 + signal when killed) and everything it
/// printed, stdout and stderr together.
package struct CommandResult: Sendable {
    /// The exit status.
    package var status: Int32
    /// Stdout and stderr, interleaved as written.
    package var output: String

    /// A result with `status` and `output`.
    package init(status: Int32, output: String) {
        self.status = status
        self.output = output
    }
}

/// Runs `command` (a program and its arguments; `launcher + [path] + arguments` for a wrapper such as `setpriv`)
/// with `environment` over a minimal one (`PATH`, `HOME=/tmp`), and waits for it to end without holding a thread
/// of the cooperative pool (``RunningProcess/waitForExit(timeout:)``). Throws when it does not end within
/// `timeout`.
package func runCommand(
    _ command: [String], environment: [String: String] = [:], timeout: Duration = testDeadline
) async throws -> CommandResult {
    let logPath = "/tmp/tsc-\(UUID().uuidString).log"
    defer { try? FileManager.default.removeItem(atPath: logPath) }
    var variables = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp"]
    variables.merge(environment) { $1 }
    let process = try RunningProcess(
        command[0], Array(command.dropFirst()), environment: variables, outputPath: logPath)
    guard let status = await process.waitForExit(timeout: timeout) else {
        throw TestSupportError(description: "\(command) did not finish within \(timeout)")
    }
    return CommandResult(status: status, output: process.output)
}
