import Foundation
import Logging
import StateStore
import Synchronization
import Systemd
import UnixHTTP
import WorkspaceModel

/// The running daemon: wires the state store, the service manager and (later) the control API together.
///
/// The start-up order: the caller installs ``SignalSources`` first, then ``start()`` takes the state lock,
/// loads and migrates (reporting STATUS and extending the start timeout while it runs), logs the load report,
/// starts the persistence engine and the watchdog, and only then sends READY=1. ``stop(signal:)`` sends
/// STOPPING=1, flushes synchronously and returns the exit status; ``reload()`` re-reads the configuration.
public final class Daemon: Sendable {
    /// The configuration in force.
    public var configuration: DaemonConfiguration { current.withLock { $0 } }
    /// The state, once started.
    public var state: PersistentState<Workspace>? { engine.withLock { $0 } }

    let sources: ConfigurationSources
    let notifier: any ServiceNotifier
    let logger: Logger
    let logLevel: LogLevelControl
    let startedAt = ContinuousClock.now
    let current: Mutex<DaemonConfiguration>
    let engine = Mutex<PersistentState<Workspace>?>(nil)
    let watchdog = Mutex<Watchdog?>(nil)
    let server = Mutex<HTTPServer?>(nil)

    /// A daemon that has not started.
    ///
    /// - Parameters:
    ///   - configuration: The configuration loaded from `sources`.
    ///   - sources: Where a reload reads the configuration again.
    ///   - notifier: The service manager (`LibsystemdNotifier` in production).
    ///   - logLevel: The shared level a reload changes.
    ///   - logger: Where the daemon logs.
    public init(
        configuration: DaemonConfiguration, sources: ConfigurationSources, notifier: any ServiceNotifier,
        logLevel: LogLevelControl, logger: Logger
    ) {
        self.current = Mutex(configuration)
        self.sources = sources
        self.notifier = notifier
        self.logLevel = logLevel
        self.logger = logger
    }

    /// How long the daemon has been running.
    public var uptime: Duration { ContinuousClock.now - startedAt }

    /// Loads the state, serves the control API and becomes ready.
    public func start() async throws(DaemonStartError) {
        let configuration = self.configuration
        let file = try openStateFile(configuration)
        let loaded = try load(file)
        logLoadReport(loaded.report)
        logImport(loaded.report)
        let persistent = PersistentState(
            file: file, loaded: loaded,
            configuration: PersistenceConfiguration(
                debounce: configuration.saveDebounce, maximumDelay: configuration.saveMaximumDelay),
            observer: { [logger] event in Self.log(event, path: file.path, logger: logger) })
        engine.withLock { $0 = persistent }
        if loaded.report.migrated || !loaded.report.repairs.isEmpty {
            // Bring the file on disk to the current version (the pre-migration backup is made first) without
            // waiting for a client's change; the debounce applies as for any change.
            _ = try? persistent.apply { (_: inout Workspace) in () }
        }
        let api = ControlAPI(
            state: persistent, statePath: file.path, uptime: { [startedAt] in ContinuousClock.now - startedAt },
            logger: logger)
        let httpServer = try await startControlServer(api)
        server.withLock { $0 = httpServer }
        startWatchdog(persistent)
        let status = readyStatus(loaded.report)
        send { try notifier.ready(status: status) }
        logger.notice(
            "ready: \(status)",
            metadata: DaemonEvent.started.metadata([
                "state_path": "\(file.path)", "control_socket": "\(configuration.controlSocketPath)",
            ]))
    }

    /// The STATUS line sent with READY=1.
    func readyStatus(_ report: LoadReport) -> String {
        let counts = state?.read { "\($0.projects.count) projects, \($0.favorites.count) favorites" } ?? ""
        return "serving \(counts); \(report.summary)"
    }

    /// Sends a notification; a failure is logged, never fatal.
    func send(_ notification: () throws -> Void) {
        do {
            try notification()
        } catch {
            logger.warning("cannot notify the service manager: \(error)")
        }
    }

    private func openStateFile(_ configuration: DaemonConfiguration) throws(DaemonStartError) -> StateFile<Workspace> {
        try Self.createDirectory(configuration.stateDirectory)
        let schema: StateSchema<Workspace>
        do {
            schema = try WorkspaceSchema.make()
        } catch {
            preconditionFailure("the workspace migration chain is invalid: \(error)")
        }
        return StateFile(
            path: configuration.statePath, schema: schema,
            configuration: StateFileConfiguration(
                corruptFilePolicy: configuration.corruptFilePolicy, backupsKept: configuration.backupsKept))
    }

    /// Creates `path` and its missing parents (mode 0700), reporting the real `mkdir` error.
    static func createDirectory(_ path: String) throws(DaemonStartError) {
        var existing = stat()
        if stat(path, &existing) == 0 { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try createDirectory(parent) }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw .stateDirectory(FileSystemError(operation: "mkdir", path: path, errno: errno))
        }
    }

    /// Loads while telling systemd what is happening and extending the start timeout every second.
    private func load(_ file: StateFile<Workspace>) throws(DaemonStartError) -> LoadedState<Workspace> {
        let size = (try? PosixFileSystem().attributes(of: file.path))??.size ?? 0
        send {
            try notifier.send([
                .status("loading \(file.path) (\(size) bytes)"), .extendTimeout(microseconds: 5_000_000),
            ])
        }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "workspaced.load-timeout"))
        timer.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1))
        timer.setEventHandler { [notifier] in try? notifier.extendTimeout(by: .seconds(5)) }
        timer.resume()
        defer { timer.cancel() }
        do {
            guard let legacy = configuration.legacyImport else { return try file.load() }
            return try file.load(importing: legacy)
        } catch {
            logRefusal(error, path: file.path)
            let failure = DaemonStartError.state(error)
            send { try notifier.status(failure.description) }
            throw failure
        }
    }

    private func startWatchdog(_ persistent: PersistentState<Workspace>) {
        let configuration: WatchdogConfiguration?
        do {
            configuration = try WatchdogConfiguration.fromProcessEnvironment()
        } catch {
            logger.warning("ignoring the watchdog settings: \(error)")
            return
        }
        guard let configuration else { return }
        let dog = Watchdog(
            configuration: configuration, notifier: notifier,
            observer: { [logger] event in
                if event == .unhealthy { logger.error("the state owner did not answer; not pinging the watchdog") }
            },
            healthCheck: { await Self.ownerAnswers(persistent) })
        watchdog.withLock { $0 = dog }
        dog.start()
        logger.info("watchdog: pinging every \(configuration.pingInterval)")
    }

    /// Whether the state owner answers a read: run off the cooperative pool so a hung owner hangs only this check
    /// (and the watchdog then stops pinging).
    static func ownerAnswers(_ persistent: PersistentState<Workspace>) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: persistent.read { _ in true })
            }
        }
    }
}
