import ArgumentParser
import Dispatch
import Foundation
import WorkspaceAPI
import WorkspaceClient

#if canImport(Glibc)
import Glibc
#endif

/// `workspacectl watch`: the daemon's events as they happen (`GET /v1/events`), like `docker events`.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print the daemon's events as they happen: changes, saves, reloads, the stop.",
        discussion: """
            One line per event: its time, type and fields, e.g. \
            `2026-11-23T12:03:01Z change revision 12 project.create <id>`; with --json, the daemon's \
            newline-delimited JSON lines as received. The first event says from which revision on changes follow. \
            A watcher that cannot keep up is told how many events it missed (`lagged`); the daemon never waits \
            for it. Runs until interrupted (Ctrl-C, exit 0) or until the daemon stops (exit 0 after its \
            `stopping` event); exit 69 when the connection cannot be made or breaks. --timeout bounds connecting \
            only. With --since ETAG (from `show`, a change or an earlier watch), the changes made after that \
            state are replayed first when the daemon still holds them; otherwise the first event is `reset`: \
            read the workspace again.
            """)

    @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions

    @Option(
        help: ArgumentHelp("Resume after the state of this ETag: replay the changes made since.", valueName: "etag"))
    var since: WorkspaceETag?

    func run() async throws {
        let interrupt = Self.exitOnInterrupt()
        defer { interrupt.cancel() }
        let output = connection.output
        let lines: WorkspaceEventLines
        do {
            lines = try await connection.client().eventLines(since: since)
        } catch {
            throw output.fail(error)
        }
        var stopping = false
        do throws(WorkspaceClientError) {
            for try await line in lines {
                let event = try? WorkspaceEvent.decode(line: line)
                if output.json {
                    Output.standardOutput(line)
                } else if let event {
                    Output.standardOutput(Self.render(event))
                } else {
                    throw .invalidResponse("an event line is not an event: \(line.prefix(200))")
                }
                if case .stopping = event?.kind { stopping = true }
            }
        } catch {
            // The daemon said it stops: the connection ending without the stream's end changes nothing.
            guard stopping else { throw output.fail(error) }
        }
        guard stopping else {
            Output.standardError("workspacectl: the daemon ended the event stream without saying it stops")
            throw ExitCode(.unavailable)
        }
    }

    /// One line for people: `<time> <type> <fields>`.
    static func render(_ event: WorkspaceEvent) -> String {
        let what: String
        switch event.kind {
        case .subscribed(let revision, let lineage):
            what = "subscribed at \(WorkspaceETag(lineage: lineage, revision: revision))"
        case .reset(let revision, let lineage, let reason):
            what =
                "reset to \(WorkspaceETag(lineage: lineage, revision: revision)): \(reason); read the workspace again"
        case .change(let revision, let operation, let id):
            what = "change revision \(revision) \(operation)" + (id.map { " \($0)" } ?? "")
        case .saveDurable(let revision, let milliseconds, let bytes):
            what = "save durable revision \(revision) (\(bytes) bytes, \(String(format: "%.1f", milliseconds)) ms)"
        case .saveFailed(let error, let failures, let retryIn):
            let retry = retryIn.map { String(format: ", retry in %.1f s", $0 / 1000) } ?? ""
            what = "save FAILED (\(failures) in a row\(retry)): \(error)"
        case .saveRecovered(let revision, let failures):
            what = "save recovered at revision \(revision) after \(failures) failed save(s)"
        case .configReloaded(let logLevel):
            what = "config reloaded, log level \(logLevel)"
        case .stopping(let signal):
            what = "stopping (signal \(signal))"
        case .lagged(let missed):
            what = "lagged: \(missed) event(s) missed"
        case .unknown(let type):
            what = type
        }
        return "\(event.time.formatted(.iso8601)) \(what)"
    }

    /// Exits 0 on SIGINT (every line printed so far is already written: output is unbuffered).
    private static func exitOnInterrupt() -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "workspacectl.watch"))
        source.setEventHandler { Glibc.exit(ExitStatus.success.rawValue) }
        source.resume()
        return source
    }
}
