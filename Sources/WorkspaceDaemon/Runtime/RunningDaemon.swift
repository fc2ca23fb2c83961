import FoundationEssentials
import Logging
import StateStore
import Synchronization
import Systemd
import UnixHTTP
import WorkspaceAPI
import WorkspaceModel

/// A started daemon: it owns the state, the control API and its server, and the watchdog. ``stop(signal:)``
/// ends it (STOPPING=1, refuse changes, flush synchronously) and ``shutDown()`` closes the server; ``reload()``
/// re-reads the configuration. ``DaemonLifecycle`` calls these one at a time, in the order the events came.
package final class RunningDaemon: Sendable {
    /// The daemon's configuration, sources and environment.
    package let daemon: Daemon
    /// The workspace state and its persistence engine.
    package let state: PersistentState<Workspace>
    /// What the load did.
    package let report: LoadReport
    /// The control API in memory: the same routes and authorization the socket serves.
    package let responder: HTTPResponder
    let api: ControlAPI
    /// The socket server; `nil` with ``ControlTransport/inMemory``.
    let server: HTTPServer?
    /// The watchdog; `nil` when systemd asked for none.
    let watchdog: Watchdog?
    /// Replication off the host; `nil` when off.
    package let replica: DaemonReplica?
    /// The writer of `metrics.textfile`; `nil` when none is configured.
    package let metricsTextfile: MetricsTextfile?
    /// The TCP server of `metrics.listen`; `nil` when none is configured or it could not bind.
    let metricsListener: HTTPServer?
    let stopStatus = Mutex<ExitStatus?>(nil)

    init(
        daemon: Daemon, state: PersistentState<Workspace>, api: ControlAPI, report: LoadReport,
        server: HTTPServer?, responder: HTTPResponder, watchdog: Watchdog?, replica: DaemonReplica? = nil,
        metricsTextfile: MetricsTextfile? = nil, metricsListener: HTTPServer? = nil
    ) {
        self.metricsListener = metricsListener
        self.replica = replica
        self.metricsTextfile = metricsTextfile
        self.daemon = daemon
        self.state = state
        self.api = api
        self.report = report
        self.server = server
        self.responder = responder
        self.watchdog = watchdog
    }

    /// The events of `GET /v1/events`: changes, saves, reloads and the stop.
    package var events: EventHub { api.events }

    var logger: Logger { daemon.logger }
    var notifier: any ServiceNotifier { daemon.notifier }

    /// The STATUS line sent with READY=1.
    func readyStatus() -> String {
        let counts = state.read {
            Self.counted($0.projects.count, "project") + ", " + Self.counted($0.favorites.count, "favorite")
        }
        let ignored = daemon.configuration.ignoredKeys
        let warning =
            ignored.isEmpty
            ? ""
            : "; ignoring unknown config key(s): "
                + ignored.map { $0.key + ($0.suggestion.map { " (did you mean \($0)?)" } ?? "") }
                .joined(separator: ", ")
        return "serving \(counts); \(StartSummary.line(report, replay: state.journalReplay))\(warning)"
    }

    /// `count` and `noun`, plural unless the count is one: "1 project", "0 projects".
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// Sends a notification; a failure is logged, never fatal.
    func send(_ notification: () throws -> Void) {
        daemon.send(notification)
    }

    /// Closes the control server and the metrics listener after a stop (requests in flight finish; new changes
    /// were already refused by the closed state). Does nothing for an in-memory transport.
    package func shutDown() async {
        await metricsListener?.shutdown()
        await server?.shutdown()
    }
}
