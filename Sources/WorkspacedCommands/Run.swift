import ArgumentParser
import CEarlySignals
import CStartPages
import FoundationEssentials
import Glibc
import Logging
import StateStore
import Systemd
import UnixHTTP
import WorkspaceDaemon

/// Runs the daemon in the foreground until SIGTERM or SIGINT.
struct Run: SeamedCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run the daemon in the foreground (the default).")

    @OptionGroup var options: ConfigOptions

    func run(seams: WorkspacedSeams) async throws {
        try await Self.run(sources: options.sources(), seams: seams)
    }

    /// Runs the daemon on the configuration `sources` give until it stops, and exits with its status; also called
    /// directly when ``RunCommandLine`` read the command line.
    static func run(sources: ConfigurationSources, seams: WorkspacedSeams) async throws {
        // First, before anything can take time: until these exist a SIGTERM would kill the process unflushed.
        // (Before these, the load-time handlers of CEarlySignals made a SIGTERM a clean exit.)
        // Until the lifecycle's handler is set, a SIGTERM or SIGINT exits at once with status 0 (nothing was
        // accepted yet) and a SIGHUP is ignored. libdispatch registers the sources on its manager thread while
        // the configuration is read (a signal meanwhile waits in the latch); completeRegistration() below waits
        // for that and delivers such a signal before the daemon is made.
        let signals = SignalSources(
            LifecycleEvent.signals, label: "workspaced.signals", afterArming: seams.afterArming,
            waitsForRegistration: false, handler: LifecycleEvent.beforeStart)
        // The control server's event loops start their threads on the other processor while this one reads the
        // configuration, which nothing else runs beside; Daemon.start asking again is a no-op.
        SharedEventLoops.startInBackground()
        // So does the metrics registry (Prometheus checks every name and label character by character, about
        // 0.6 million instructions); unused when the configuration turns metrics off.
        let metrics = BackgroundValue {
            DaemonMetrics(version: ControlAPI.daemonVersion, schemaVersion: seams.schema.currentVersion)
        }
        let logLevel = DaemonLogging.bootstrap(level: .info)
        let logger = Logger(label: "workspaced")
        let notifier = LibsystemdNotifier()
        let configuration: DaemonConfiguration
        do {
            configuration = try await ConfigurationLoader.load(sources)
        } catch {
            logger.critical("refusing to start: \(error)")
            try? notifier.status("refusing to start: \(error)")
            throw ExitCode(ConfigurationError.exitCode)
        }
        signals.completeRegistration()
        logLevel.current = configuration.logLevel
        // Once the configured level is in force: at `info`, the level until then, these would never show.
        logger.debug("early signal handlers were installed: \(workspaced_early_signals_installed() != 0)")
        logger.debug("the .bss was made resident before main: \(workspaced_start_pages_outcome() == 0)")
        let daemon = Daemon(
            configuration: configuration, sources: sources,
            environment: DaemonEnvironment(
                notifier: notifier, logger: logger, logLevel: logLevel, fileSystem: seams.fileSystem,
                memoryLimit: seams.memoryLimit, schema: seams.schema,
                startTimeoutInterval: seams.startTimeoutInterval, preparedMetrics: metrics))
        let lifecycle = DaemonLifecycle(queue: signals.queue)
        signals.setHandler { number in lifecycle.handle(LifecycleEvent(signal: number)) }
        let kept = seams.whileRunning(lifecycle)
        defer { withExtendedLifetime(kept) {} }
        let status = await lifecycle.run(daemon)
        // Exit here, with the flushed and closed state still referenced by the lifecycle: returning would free
        // the whole workspace first, record by record, between the flush and the exit systemd waits for.
        fflush(nil)
        Glibc.exit(status.rawValue)
    }
}
