import Foundation
import TestSupport

/// The outcome of one child process: exit status and everything it printed (stdout and stderr together).
struct CommandResult {
    var status: Int32
    var output: String
}

/// Runs `path` with `arguments` and waits up to 60 s for it without holding a thread of the cooperative pool (the
/// task sleeps between polls; the pool is small and the daemon's clients in other tests need it).
func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> CommandResult {
    let logPath = "/tmp/wsa-cmd-\(UUID().uuidString).log"
    defer { try? FileManager.default.removeItem(atPath: logPath) }
    var variables = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp"]
    variables.merge(environment) { $1 }
    let process = try RunningProcess(path, arguments, environment: variables, outputPath: logPath)
    let status = await process.waitForExit(timeout: .seconds(60))
    let output = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    guard let status else { throw TestSupportError(description: "\(path) \(arguments) did not finish") }
    return CommandResult(status: status, output: output)
}

/// Runs the built `workspacectl` against `daemon`'s socket.
func workspacectl(_ daemon: LiveDaemon, _ arguments: [String]) async throws -> CommandResult {
    try await run(
        ProductPaths.executable("workspacectl"), arguments, environment: ["WORKSPACED_SOCKET": daemon.socketPath])
}

/// Runs `workspacectl … --json` and parses its output; records a failure naming the output when it is not JSON
/// or the exit status is not 0.
func workspacectlJSON(_ daemon: LiveDaemon, _ arguments: [String]) async throws -> Any {
    let result = try await workspacectl(daemon, arguments + ["--json"])
    guard result.status == 0 else {
        throw TestSupportError(description: "workspacectl \(arguments) exited \(result.status): \(result.output)")
    }
    return try JSONSerialization.jsonObject(with: Data(result.output.utf8), options: [.fragmentsAllowed])
}

/// One HTTP exchange through curl: the status code and the body.
struct CurlResult {
    var status: Int
    var body: String

    /// The body as a JSON object.
    var object: [String: Any] {
        ((try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]) ?? [:]
    }
}

/// Sends one request with `curl --unix-socket`, optionally as another user through `setpriv`.
func curl(
    _ daemon: LiveDaemon, _ method: String, _ target: String, body: String? = nil, headers: [String] = [],
    asUser: Int? = nil
) async throws -> CurlResult {
    let bodyPath = "/tmp/wsa-curl-\(UUID().uuidString).out"
    defer { try? FileManager.default.removeItem(atPath: bodyPath) }
    var arguments = [
        "-sS", "--unix-socket", daemon.socketPath, "-X", method, "-o", bodyPath, "-w", "%{http_code}",
    ]
    for header in headers { arguments += ["-H", header] }
    if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
    arguments.append("http://localhost" + target)
    let result: CommandResult
    if let uid = asUser {
        result = try await run(
            "/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "/usr/bin/curl"] + arguments)
    } else {
        result = try await run("/usr/bin/curl", arguments)
    }
    let responseBody = (try? String(contentsOfFile: bodyPath, encoding: .utf8)) ?? ""
    guard let status = Int(result.output.suffix(3)) else {
        throw TestSupportError(description: "curl \(method) \(target): \(result.output)")
    }
    return CurlResult(status: status, body: responseBody)
}
