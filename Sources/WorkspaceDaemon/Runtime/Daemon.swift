import Dispatch
import FoundationEssentials
import Glibc
import Logging
import StateStore
import Synchronization
import Systemd
import UnixHTTP
import WorkspaceAPI
import WorkspaceModel
import WorkspaceSecrets

/// The daemon before it runs: its configuration (which a reload changes), where the configuration comes from,
/// and the environment it runs against. ``start(serving:)`` loads the state, serves the control API and
/// returns the ``RunningDaemon`` that owns all of it; there are no parts to fill in later.
///
/// The start-up order: the caller installs ``SignalSources`` first (``DaemonLifecycle`` does), then
/// ``start(serving:)`` takes the state lock, loads and migrates (reporting STATUS and extending the start timeout
/// while it runs; an installed secret store opens and the control socket is bound beside it, accepting nothing
/// yet), logs the load report, starts the persistence engine, serves the control API and starts the watchdog, and
/// only then sends READY=1.
package final class Daemon: Sendable {
    /// The configuration in force.
    package var configuration: DaemonConfiguration { current.withLock { $0 } }

    let sources: ConfigurationSources
    let environment: DaemonEnvironment
    let startedAt = ContinuousClock.now
    let current: Mutex<DaemonConfiguration>
    /// The STATUS line while saves fail and after they recover.
    let statusLine: SaveStatusLine
    /// The state file while ``start(serving:)`` loads it, until READY: a stop in that time is not a crash.
    let loadingFile = Mutex<StateFile<Workspace>?>(nil)
    /// The control server listening while ``start(serving:)`` loads, until it serves: a stop in that time removes
    /// its socket file.
    let listeningServer = Mutex<HTTPServer?>(nil)

    var notifier: any ServiceNotifier { environment.notifier }
    var logger: Logger { environment.logger }
    var logLevel: LogLevelControl { environment.logLevel }

    /// A daemon that has not started.
    ///
    /// - Parameters:
    ///   - configuration: The configuration loaded from `sources`.
    ///   - sources: Where a reload reads the configuration again.
    ///   - environment: The service manager, logging, file system, clock and transport.
    package init(configuration: DaemonConfiguration, sources: ConfigurationSources, environment: DaemonEnvironment) {
        self.current = Mutex(configuration)
        self.sources = sources
        self.environment = environment
        self.statusLine = SaveStatusLine(notifier: environment.notifier)
    }

    /// How long the daemon has been running.
    package var uptime: Duration { ContinuousClock.now - startedAt }

    /// Loads the state, serves the control API and becomes ready.
    ///
    /// - Parameter serving: Called just before the control API can accept a request: from then on a change may
    ///   be acknowledged, so a stop must flush (``DaemonLifecycle`` holds a stop back until the daemon runs).
    package func start(serving: @Sendable () -> Void = {}) async throws(DaemonStartError) -> RunningDaemon {
        let configuration = self.configuration
        HeapTrim.keepLargeBlocksMapped()
        logIgnoredKeys(configuration.ignoredKeys)
        // Before the state file, which reports its own figures into the registry from its load on.
        let metrics =
            configuration.metricsEnabled
            ? environment.preparedMetrics?.value
                ?? DaemonMetrics(
                    version: ControlAPI.daemonVersion, schemaVersion: environment.schema.currentVersion,
                    startedAt: Date(timeIntervalSinceNow: -Double(uptime.components.seconds))) : nil
        let file = try openStateFile(configuration, metrics: metrics?.stateMetrics)
        let replicaConnection = try openReplica(configuration)
        var started = false
        defer { if !started { replicaConnection?.close() } }
        if let replicaConnection, let settings = configuration.replica, settings.restoreIfMissing {
            try restoreIfMissing(file, from: replicaConnection, settings: settings)
        }
        try refuseAStateTooLargeForTheMemoryLimit(file)
        let pendingSecrets = beginOpeningSecretStore(configuration)
        if let metrics {
            // The control API's request figures, made beside the load instead of when its routes are registered.
            DispatchQueue.global(qos: .userInitiated).async {
                metrics.prepareRoutes(APIRoute.all.map(\.description))
            }
        }
        if case .socket = environment.transport {
            // The control server's event loops start their threads beside the load, not after it (`workspaced run`
            // starts them sooner, beside its configuration read; asking again is then a no-op).
            SharedEventLoops.startInBackground()
        }
        // Bound beside the load; a client that connects meanwhile waits in the backlog until the API serves.
        let control: PendingControlServer?
        if case .socket = environment.transport {
            do {
                control = try beginListening()
            } catch {
                await pendingSecrets.settle()
                throw error
            }
        } else {
            control = nil
        }
        listeningServer.withLock { $0 = control?.server }
        loadingFile.withLock { $0 = file }
        let startTimeout = StartTimeoutExtension(notifier: notifier, interval: environment.startTimeoutInterval)
        defer { startTimeout.stop() }
        let loaded: LoadedState<Workspace>
        let loadedAt: Date
        let events = EventHub()
        // One hold for the history and the replicator: the history keeps what the replica lacks.
        let hold = configuration.replica.flatMap { DaemonReplica.makeHold(settings: $0, logger: logger) }
        let persistent: PersistentState<Workspace>
        do {
            loaded = try load(file)
            loadedAt = Date()
            logLoadReport(loaded.report)
            logImport(loaded.report)
            persistent = try openJournaledState(file, loaded: loaded, events: events, hold: hold)
        } catch {
            await pendingSecrets.settle()
            await control?.abandon()
            throw error
        }
        metrics?.recordReplay(persistent.journalReplay?.recordsReplayed ?? 0)
        if loaded.report.migrated || !loaded.report.repairs.isEmpty || loaded.report.salvage != nil {
            // Bring the file on disk to the current version before READY=1 (the pre-migration backup is made
            // first; a salvaged file's original is already kept), so that a service reported started runs on a
            // durable, current file.
            do {
                try persistent.saveSynchronously()
            } catch {
                // The original file is untouched; the failure was logged by the observer (save failed) and shows
                // in STATUS=; the save is retried like any other. Refusing to start would only loop.
                logger.warning(
                    "the migrated state could not be saved before start-up finished; serving it and retrying: \(error)")
            }
        }
        HeapTrim.releaseFreePages()
        var replica: DaemonReplica?
        if let replicaConnection {
            do {
                replica = try makeReplica(
                    configuration, connection: replicaConnection, statePath: file.path, hold: hold)
            } catch {
                await control?.abandon()
                throw error
            }
        }
        let scrub = makeScrub(statePath: file.path, lineage: { persistent.lineage }, replica: replica)
        let secrets = await pendingSecrets.opening()
        logSecrets(secrets, location: SecretsLocation(directory: configuration.stateDirectory))
        let api = ControlAPI(
            state: persistent, statePath: file.path, uptime: { [startedAt] in ContinuousClock.now - startedAt },
            logger: logger, secrets: secrets, load: LoadStatusSource(report: loaded.report, loadedAt: loadedAt),
            savesFailingSince: { [statusLine] in statusLine.failingSince }, events: events,
            // The configuration in force when asked, not the one of the start: a reload replaces its warnings.
            configurationWarnings: { [self] in self.configuration.ignoredKeys.map(\.description) }, replica: replica,
            scrub: scrub, metrics: metrics)
        serving()
        let server: HTTPServer?
        // One router for both the socket's server and the in-process responder.
        let router = api.router()
        if let control {
            do {
                try await control.serve(router: router, authorize: authorizer(secrets))
                server = control.server
            } catch {
                try? persistent.close()
                await control.abandon()
                throw error
            }
        } else {
            server = nil
        }
        listeningServer.withLock { $0 = nil }
        let running = RunningDaemon(
            daemon: self, state: persistent, api: api, report: loaded.report, server: server,
            responder: HTTPResponder(
                router: router, authorize: authorizer(secrets),
                maximumBodySize: configuration.apiMaximumBodyBytes),
            watchdog: startWatchdog(persistent), replica: replica,
            metricsTextfile: configuration.metricsEnabled
                ? configuration.metricsTextfile.map { path in
                    MetricsTextfile(
                        path: path, interval: configuration.metricsTextfileInterval, logger: logger,
                        exposition: { api.metricsExposition() ?? [] })
                } : nil,
            metricsListener: server == nil ? nil : await startMetricsListener { api.metricsExposition($0) ?? [] })
        started = true
        let status = running.readyStatus()
        statusLine.ready(status)
        startTimeout.stop()
        send { try notifier.ready(status: status) }
        loadingFile.withLock { $0 = nil }
        do {
            // The load finished: it no longer counts towards the crash-loop guard.
            try file.finishedLoading()
        } catch {
            logger.warning("cannot record that the load finished (the next start counts one more): \(error)")
        }
        logger.notice(
            "ready: workspaced \(Release.version), \(status)",
            metadata: DaemonEvent.started.metadata([
                "state_path": "\(file.path)", "control_socket": "\(configuration.controlSocketPath)",
                "version": "\(Release.version)",
            ]))
        verifyHistoryInBackground(persistent, path: file.path)
        replica?.start(logger: logger)
        running.metricsTextfile?.start()
        scrub.start()
        return running
    }

    /// Logs the history kept at the start, then checks every history file (SHA-256, frames) and logs each damaged
    /// one (``DaemonEvent/historyDamaged``), on a background thread once the daemon serves: reading 64 MiB would
    /// otherwise delay READY=1, and so would the status, which makes the durable steps the start left for after it
    /// (the history's directory, the starting snapshot's link: ``PersistentState/historyStatus``).
    private func verifyHistoryInBackground(_ state: PersistentState<Workspace>, path: String) {
        DispatchQueue.global(qos: .utility).async { [self] in
            guard let kept = state.historyStatus else { return }
            logHistory(kept, path: path)
            guard let history = state.verifyHistory() else { return }
            logHistoryDamage(history, path: path)
        }
    }

    /// Called when a stop ends the process before the daemon is ready: the load under way was stopped, not
    /// crashed, and does not count towards the crash-loop guard.
    func stoppedWhileLoading() {
        loadingFile.withLock { $0 }?.stoppedWhileLoading()
        listeningServer.withLock { $0 }?.removeSocketFileBeforeExit()
    }

    /// Logs each unknown configuration key the load ignored, naming the closest known key.
    func logIgnoredKeys(_ ignored: [IgnoredConfigurationKey]) {
        for key in ignored {
            logger.warning(
                "\(key)",
                metadata: [
                    "config_key": "\(key.key)", "config_source": "\(key.source)",
                    "suggestion": "\(key.suggestion ?? "")",
                ])
        }
    }

    /// Sends a notification; a failure is logged, never fatal.
    func send(_ notification: () throws -> Void) {
        do {
            try notification()
        } catch {
            logger.warning("cannot notify the service manager: \(error)")
        }
    }

    private func openStateFile(
        _ configuration: DaemonConfiguration, metrics: StateMetrics?
    ) throws(DaemonStartError) -> StateFile<Workspace> {
        try Self.createDirectory(configuration.stateDirectory)
        var stateFileConfiguration = StateFileConfiguration(
            corruptFilePolicy: configuration.corruptFilePolicy, backupsKept: configuration.backupsKept,
            crashedLoadLimit: configuration.crashedLoadLimit > 0 ? configuration.crashedLoadLimit : nil)
        stateFileConfiguration.corruptFileFallback = configuration.corruptFileFallback
        // With metrics off, the figures go to swift-metrics's no-op handlers (the daemon bootstraps no backend).
        if let metrics { stateFileConfiguration.metrics = metrics }
        return StateFile(
            path: configuration.statePath, schema: environment.schema, configuration: stateFileConfiguration,
            fileSystem: environment.fileSystem)
    }

    /// Creates `path` and its missing parents (mode 0700), reporting the real `mkdir` error.
    static func createDirectory(_ path: String) throws(DaemonStartError) {
        var existing = stat()
        if stat(path, &existing) == 0 { return }
        let parent = PathText.deletingLastComponent(of: path)
        if !parent.isEmpty, parent != path { try createDirectory(parent) }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw .stateDirectory(FileSystemError(operation: "mkdir", path: path, errno: errno))
        }
    }

    /// Refuses, before the load, a state file whose load is expected to exceed the service's memory limit: the
    /// kernel would kill it at every restart (the crash-loop guard would set the file aside only after three).
    private func refuseAStateTooLargeForTheMemoryLimit(_ file: StateFile<Workspace>) throws(DaemonStartError) {
        guard let size = (try? environment.fileSystem.attributes(of: file.path))??.size else { return }
        let estimate = LoadMemoryEstimate(fileBytes: UInt64(size))
        guard let refusal = estimate.refusal(limit: environment.memoryLimit(), path: file.path) else { return }
        let failure = DaemonStartError.memory(refusal)
        send { try notifier.status(failure.description) }
        throw failure
    }

    /// The state the daemon serves: the loaded workspace with the changes its journal holds replayed (a crash's),
    /// recording every later change of the control API in the journal before it is acknowledged.
    private func openJournaledState(
        _ file: StateFile<Workspace>, loaded: LoadedState<Workspace>, events: EventHub, hold: HistoryHold?
    ) throws(DaemonStartError) -> PersistentState<Workspace> {
        let configuration = self.configuration
        let persistent: PersistentState<Workspace>
        do {
            persistent = try PersistentState(
                file: file, loaded: loaded, journaling: WorkspaceChange.self, history: configuration.history,
                historyHold: hold,
                configuration: PersistenceConfiguration(
                    debounce: configuration.saveDebounce, maximumDelay: configuration.saveMaximumDelay),
                scheduler: environment.scheduler,
                observer: { [logger, statusLine] event in
                    Self.log(event, path: file.path, logger: logger)
                    statusLine.observe(event)
                    events.observe(event)
                    if case .saved = event { HeapTrim.releaseFreePages() }
                })
        } catch {
            logRefusal(error, path: file.path)
            let failure = DaemonStartError.state(error)
            send { try notifier.status(failure.description) }
            throw failure
        }
        if let replay = persistent.journalReplay {
            logJournalReplay(replay, path: file.path)
        }
        return persistent
    }

    /// Loads while telling systemd what is happening (the start timeout is extended from here to READY=1:
    /// ``StartTimeoutExtension``).
    private func load(_ file: StateFile<Workspace>) throws(DaemonStartError) -> LoadedState<Workspace> {
        let size = (try? environment.fileSystem.attributes(of: file.path))??.size ?? 0
        send {
            try notifier.send([
                .status("loading \(file.path) (\(size) bytes)"), .extendTimeout(microseconds: 5_000_000),
            ])
        }
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

    /// Starts pinging the watchdog when systemd asked for one; `nil` when it did not.
    private func startWatchdog(_ persistent: PersistentState<Workspace>) -> Watchdog? {
        let configuration: WatchdogConfiguration?
        do {
            configuration = try environment.watchdog()
        } catch {
            logger.warning("ignoring the watchdog settings: \(error)")
            return nil
        }
        guard let configuration else { return nil }
        let dog = Watchdog(
            configuration: configuration, notifier: notifier,
            observer: { [logger] event in
                if event == .unhealthy { logger.error("the state owner did not answer; not pinging the watchdog") }
            },
            healthCheck: { await Self.ownerAnswers(persistent) })
        dog.start()
        logger.info("watchdog: pinging every \(configuration.pingInterval)")
        return dog
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
