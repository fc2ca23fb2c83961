import Foundation
import TestSupport

/// Runs the built `workspacectl` against `daemon`'s socket, with `environment` over the runner's.
func workspacectl(
    _ daemon: LiveDaemon, _ arguments: [String], environment: [String: String] = [:]
) async throws -> CommandResult {
    try await runCommand(
        [ProductPaths.executable("workspacectl")] + arguments,
        environment: ["WORKSPACED_SOCKET": daemon.socketPath].merging(environment) { $1 })
}

/// Runs `workspacectl … --json` and parses its output; throws naming the output when it is not JSON or the exit
/// status is not 0.
func workspacectlJSON(_ daemon: LiveDaemon, _ arguments: [String]) async throws -> Any {
    let result = try await workspacectl(daemon, arguments + ["--json"])
    guard result.status == 0 else {
        throw TestSupportError(description: "workspacectl \(arguments) exited \(result.status): \(result.output)")
    }
    return try JSONSerialization.jsonObject(with: Data(result.output.utf8), options: [.fragmentsAllowed])
}

/// Sends one request to `daemon` with ``curl(_:_:_:body:headers:asUser:)``, a body as JSON.
func curl(
    _ daemon: LiveDaemon, _ method: String, _ target: String, body: String? = nil, headers: [String] = [],
    asUser: UInt32? = nil
) async throws -> CurlResult {
    try await curl(
        daemon.socketPath, method, target, body: body,
        headers: headers + (body == nil ? [] : ["Content-Type: application/json"]), asUser: asUser)
}
