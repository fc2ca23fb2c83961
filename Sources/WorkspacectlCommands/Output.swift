import ArgumentParser
import Foundation
import WorkspaceAPI
import WorkspaceClient

/// Prints answers (text or JSON) to stdout and failures to stderr, and turns failures into exit codes.
struct Output {
    /// Print JSON instead of text.
    let json: Bool

    /// Prints `value` as JSON, or `human(value)` as text.
    func emit<Value: Encodable>(_ value: Value, human: (Value) -> String) throws {
        if json {
            let data = try APICoding.prettyEncoder.encode(value)
            Self.standardOutput(String(decoding: data, as: UTF8.self))
        } else {
            let text = human(value)
            if !text.isEmpty { Self.standardOutput(text) }
        }
    }

    /// Reports `error` and returns the exit code that says what kind of failure it was.
    func fail(_ error: WorkspaceClientError) -> ExitCode {
        switch error {
        case .refused(let status, let apiError):
            if json, let data = try? APICoding.prettyEncoder.encode(apiError) {
                Self.standardOutput(String(decoding: data, as: UTF8.self))
            }
            let field = apiError.field.map { " (field: \($0))" } ?? ""
            Self.standardError(
                "workspacectl: refused by workspaced (\(status) \(apiError.code)): \(apiError.message)\(field)")
            return ExitCode(.refused)
        case .unreachable, .timedOut:
            Self.standardError("workspacectl: \(error)")
            Self.standardError(
                """
                hint: is the daemon running? Check with `systemctl status workspaced`; start it with \
                `systemctl start workspaced.socket` (or workspaced.service). Another socket: --socket or \
                WORKSPACED_SOCKET.
                """)
            return ExitCode(.unavailable)
        case .invalidResponse:
            Self.standardError("workspacectl: \(error)")
            return ExitCode(.protocolError)
        }
    }

    /// Writes one line to stdout, unbuffered (so it stays in order with stderr).
    static func standardOutput(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes one line to stderr.
    static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

extension ExitCode {
    /// The argument parser's exit code for one of the shared ``WorkspaceAPI/ExitStatus`` values.
    init(_ status: ExitStatus) {
        self.init(status.rawValue)
    }
}

extension ConnectionOptions {
    /// Runs one client call, prints its answer and maps failures to exit codes.
    func perform<Value: Encodable>(
        _ call: (WorkspaceClient) async throws -> Value, human: (Value) -> String
    ) async throws {
        let value: Value
        do {
            value = try await call(client())
        } catch let error as WorkspaceClientError {
            throw output.fail(error)
        }
        try output.emit(value, human: human)
    }
}
