import Foundation
import TestSupport

/// The outcome of one `workspacectl` run: exit status and everything it printed (stdout and stderr together).
struct CommandResult {
    var status: Int32
    var output: String
}

/// Runs the built `workspacectl` with `arguments` and `WORKSPACED_SOCKET` set to `socket` (unless `nil`) and waits
/// up to 30 s without holding a thread of the cooperative pool (the stub's handlers need it). With a `launcher` (a
/// program and its arguments), that program is run instead, with the `workspacectl` path and `arguments` after
/// its own.
func workspacectl(_ arguments: [String], socket: String?, launcher: [String] = []) async throws -> CommandResult {
    let logPath = "/tmp/wctl-\(UUID().uuidString).log"
    defer { try? FileManager.default.removeItem(atPath: logPath) }
    var environment = ["PATH": "/usr/bin:/bin", "HOME": "/tmp"]
    if let socket { environment["WORKSPACED_SOCKET"] = socket }
    let command = launcher + [ProductPaths.executable("workspacectl")] + arguments
    let process = try RunningProcess(
        command[0], Array(command.dropFirst()), environment: environment, outputPath: logPath)
    let status = await process.waitForExit()
    let output = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    guard let status else { throw TestSupportError(description: "workspacectl \(arguments) did not finish") }
    return CommandResult(status: status, output: output)
}
