import Logging
import StateStore
import Systemd
import WorkspaceModel
import WorkspaceStorage

/// What the daemon runs against, apart from its configuration: the service manager, logging, the file system,
/// the clock of the persistence engine, how the control API is reached, and the state file's schema. Production uses the defaults;
/// tests pass a `RecordingNotifier`, a manual scheduler, a fault-injecting file system and ``ControlTransport/inMemory``.
package struct DaemonEnvironment: Sendable {
    /// The service manager (`LibsystemdNotifier` in production).
    package var notifier: any ServiceNotifier
    /// Where the daemon logs.
    package var logger: Logger
    /// The shared level a reload changes.
    package var logLevel: LogLevelControl
    /// Every state-file operation goes through it.
    package var fileSystem: any FileSystem
    /// The clock and timers of the persistence engine.
    package var scheduler: any PersistenceScheduler
    /// How the control API is served.
    package var transport: ControlTransport
    /// The watchdog settings (from `WATCHDOG_USEC`/`WATCHDOG_PID` in production); `nil` for none.
    package var watchdog: @Sendable () throws -> WatchdogConfiguration?
    /// The service's memory limit in bytes (systemd's `MemoryMax=`, read from the cgroup); `nil` for none.
    package var memoryLimit: @Sendable () -> UInt64?
    /// The schema of the state file: the shipped one, or with the test executable's hooks (`workspaced-testing`)
    /// one with an extra version (the package-downgrade scenario).
    package var schema: StateSchema<Workspace>
    /// How often the start timeout is extended while the state loads (``StartTimeoutExtension``): every second,
    /// or with the test executable's hooks more often, so that a test of a start that outlasts it needs no start
    /// of several seconds.
    package var startTimeoutInterval: Duration
    /// The metrics registry when it is being made beside the configuration's read (`workspaced run`), used when the
    /// configuration turns metrics on; `nil` makes it at the start, when it is needed.
    package var preparedMetrics: BackgroundValue<DaemonMetrics>?

    /// The production environment, with the given service manager, logger and level.
    package init(
        notifier: any ServiceNotifier,
        logger: Logger,
        logLevel: LogLevelControl,
        fileSystem: any FileSystem = PosixFileSystem(),
        scheduler: any PersistenceScheduler = DispatchPersistenceScheduler(),
        transport: ControlTransport = .socket,
        watchdog: @escaping @Sendable () throws -> WatchdogConfiguration? = {
            try WatchdogConfiguration.fromProcessEnvironment()
        },
        memoryLimit: @escaping @Sendable () -> UInt64? = { CgroupMemoryLimit().bytes() },
        schema: StateSchema<Workspace> = WorkspaceSchema.shipped,
        startTimeoutInterval: Duration = .seconds(1),
        preparedMetrics: BackgroundValue<DaemonMetrics>? = nil
    ) {
        self.notifier = notifier
        self.logger = logger
        self.logLevel = logLevel
        self.fileSystem = fileSystem
        self.scheduler = scheduler
        self.transport = transport
        self.watchdog = watchdog
        self.memoryLimit = memoryLimit
        self.schema = schema
        self.startTimeoutInterval = startTimeoutInterval
        self.preparedMetrics = preparedMetrics
    }
}

/// How the control API is served.
package enum ControlTransport: Sendable {
    /// On the Unix socket systemd passed (socket activation), else bound at the configured path: listening from
    /// the start of the load, accepting once the API serves.
    case socket
    /// Not on any socket: requests go through ``RunningDaemon/responder`` (tests, embedding).
    case inMemory
}
