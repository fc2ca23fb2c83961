import Foundation
import TestSupport
import Testing
import WorkspaceDaemon

#if canImport(Glibc)
import Glibc
#endif

/// A ``TestDaemon`` whose daemon runs with the fault shim preloaded on its state directory, and the checks every
/// cell of the fault matrix makes.
final class FaultWorld {
    let harness: TestDaemon
    let shim: FaultShim

    init() throws {
        harness = try TestDaemon()
        shim = FaultShim(root: harness.root, directory: harness.stateDirectory)
        try harness.writeConfig(#"{"save": {"debounceMilliseconds": 20, "maximumDelayMilliseconds": 100}}"#)
    }

    /// Starts the daemon with the shim loaded.
    @discardableResult
    func start(output: String = "out.log") async throws -> RunningProcess {
        try harness.start(environment: try await shim.environment(), output: output)
    }

    /// Starts it with the shim loaded and waits for READY=1 or its exit; the exit status when it exited.
    func startOutcome(output: String) async throws -> (process: RunningProcess, exit: Int32?) {
        let started = try await harness.startUntilReadyOrExit(environment: try await shim.environment(), output: output)
        return (started.process, started.exit)
    }

    /// `GET /v1/status` as a JSON object. Drains the notify socket first: the daemon sends a STATUS= line on the
    /// thread that finishes a save, and blocks there once the socket's queue is full (systemd always reads it).
    func status() async throws -> [String: Any] {
        _ = harness.messages()
        let response = try await curl(harness.socketPath, "GET", "/v1/status")
        guard response.status == 200 else { throw TestSupportError(description: "GET /v1/status: \(response)") }
        return try jsonObject(Data(response.body.utf8))
    }

    /// Whether the last save failed (`consecutiveFailures` > 0 with a `lastError`).
    func savesFailing() async -> Bool {
        guard let status = try? await status() else { return false }
        return (status["consecutiveFailures"] as? Int ?? 0) > 0 && status["lastError"] is String
    }

    /// Whether everything accepted is saved and the last save succeeded.
    func savedAndHealthy() async -> Bool {
        guard let status = try? await status() else { return false }
        return status["dirty"] as? Bool == false && status["consecutiveFailures"] as? Int == 0
    }

    /// `POST /v1/favorites`, durable or not.
    func addFavorite(_ name: String, durable: Bool = false) async throws -> CurlResult {
        try await curl(
            harness.socketPath, "POST", "/v1/favorites" + (durable ? "?durable=true" : ""),
            body: #"{"name":"\#(name)","path":"/srv/\#(name)"}"#)
    }

    /// Names in the state directory.
    func directoryNames() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: harness.stateDirectory)) ?? []
    }

    /// Temporary files (`.<name>.tmp-…`) left in the state directory.
    func temporaryFiles() -> [String] { directoryNames().filter { $0.hasPrefix(".") && $0.contains(".tmp-") } }

    /// The state file's bytes, or `nil` when there is none.
    func stateBytes() -> Data? { try? harness.stateBytes() }

    /// How many lines of `output` carry `event`'s MESSAGE_ID.
    static func count(_ event: DaemonEvent, in output: String) -> Int {
        output.split(separator: "\n").filter { $0.contains("message-id=\(event.messageID)") }.count
    }

    /// `data` as text ("" for `nil`).
    static func text(_ data: Data?) -> String { data.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    /// Whether `data` is a JSON object with a `version`.
    static func isStateFile(_ data: Data?) -> Bool {
        guard let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return false
        }
        return object["version"] is Int
    }
}

/// Counts the cells of one row of the fault matrix and the cells that failed a check, for the reliability summary.
final class MatrixLedger: @unchecked Sendable {
    let name: String
    private var cells: [MatrixCell] = []
    private let started = ContinuousClock.now

    init(_ name: String) { self.name = name }

    /// A new cell, counted from now on.
    func cell() -> MatrixCell {
        let cell = MatrixCell()
        cells.append(cell)
        return cell
    }

    /// Appends the row to the reliability summary.
    func record() {
        ReliabilitySummary.record(
            name, rounds: cells.count, failures: cells.filter(\.failed).count, duration: ContinuousClock.now - started)
    }
}

/// One cell of the fault matrix: each failed check is a test issue and marks the cell failed.
final class MatrixCell: @unchecked Sendable {
    private(set) var failed = false

    /// Records an issue with `message` unless `condition` holds.
    func check(
        _ condition: Bool, _ message: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) {
        if !condition { fail(message(), sourceLocation: sourceLocation) }
    }

    /// Records an issue with `message`.
    func fail(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        failed = true
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}
