import ArgumentParser
import Foundation
import WorkspaceAPI
import WorkspaceClient

/// The options every subcommand takes: where the daemon is and how to print.
///
/// `Workspacectl` and every subcommand include this group. The argument parser decodes it once, for the root
/// command, from the whole command line, and hands that value to each subcommand's group: the options are accepted
/// before or after the subcommand at any level, and one given twice takes its last value, so one after the
/// subcommand wins over one before it.
struct ConnectionOptions: ParsableArguments {
    /// The heading of these options in every `--help`.
    static let title = "Connection options (before or after the subcommand; the last given wins)"

    @Option(
        help: ArgumentHelp(
            "The daemon's control socket (default: $WORKSPACED_SOCKET, else \(WorkspaceClient.defaultSocketPath)).",
            valueName: "path"),
        completion: .file())
    var socket: String?

    @Option(help: ArgumentHelp("Seconds to wait for an answer (a durable change waits for a save).", valueName: "s"))
    var timeout: Double = 30

    @Flag(help: "Print the daemon's answer as JSON instead of text.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "An API token to send (Authorization: Bearer); default: --token-file, else $WORKSPACED_TOKEN. A command "
                + "line is visible to other users: prefer the file or the variable.", valueName: "token"))
    var token: String?

    @Option(help: ArgumentHelp("A file holding the API token.", valueName: "path"), completion: .file())
    var tokenFile: String?

    /// The socket from the flag, then `WORKSPACED_SOCKET`, then the system path.
    var socketPath: String {
        if let socket { return socket }
        if let variable = ProcessInfo.processInfo.environment["WORKSPACED_SOCKET"], !variable.isEmpty {
            return variable
        }
        return WorkspaceClient.defaultSocketPath
    }

    /// The token from `--token`, then `--token-file`, then `WORKSPACED_TOKEN`; `nil` to be judged by the
    /// peer's credentials.
    var bearerToken: String? {
        if let token { return token }
        if let tokenFile, let contents = FileManager.default.contents(atPath: tokenFile) {
            return String(decoding: contents, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let variable = ProcessInfo.processInfo.environment["WORKSPACED_TOKEN"], !variable.isEmpty {
            return variable
        }
        return nil
    }

    func validate() throws {
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number") }
        guard token == nil || tokenFile == nil else { throw ValidationError("give --token or --token-file, not both") }
        if let tokenFile, FileManager.default.contents(atPath: tokenFile) == nil {
            throw ValidationError("cannot read the token file \(tokenFile)")
        }
    }

    /// A client for the chosen socket, sending the chosen token.
    func client() -> WorkspaceClient {
        WorkspaceClient(socketPath: socketPath, timeout: .milliseconds(Int64(timeout * 1000)), token: bearerToken)
    }

    /// A printer for the chosen format.
    var output: Output { Output(json: json) }
}

/// The options every change takes.
struct ChangeFlags: ParsableArguments {
    @Flag(help: "Return only once the change is on disk (fsynced); the answer names the durable revision.")
    var durable = false

    @Option(
        name: .customLong("if-match"),
        help: ArgumentHelp(
            "Apply only if the workspace is still the state of this ETag (else refused, 412).", valueName: "etag"))
    var ifMatch: WorkspaceETag?
}
