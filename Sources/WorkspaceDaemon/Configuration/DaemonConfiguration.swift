import Logging
import StateStore

/// Everything the daemon is configured with, resolved from flags, `WORKSPACED_*` variables, the config file and
/// the defaults, in that order of precedence. See `config/workspaced.json` and the README's table.
package struct DaemonConfiguration: Sendable, Equatable {
    /// Directory holding `workspace.json`, its lock, backups and quarantined files.
    package var stateDirectory: String
    /// Path of the control API's Unix socket.
    package var controlSocketPath: String
    /// Quiet time after a change before the state is saved.
    package var saveDebounce: Duration
    /// Longest time a change may stay unsaved under a constant stream of changes.
    package var saveMaximumDelay: Duration
    /// What to do with a state file that cannot be read.
    package var corruptFilePolicy: CorruptFilePolicy
    /// What serves after a corrupt state file is set aside: the newest backup that loads, or the initial state.
    package var corruptFileFallback: CorruptFileFallback
    /// How many pre-migration backups to keep.
    package var backupsKept: Int
    /// How much history the state keeps (``StateStore/HistoryConfiguration``): `history.keepSeconds` and
    /// `history.maximumBytes`. Applied at start.
    package var history: HistoryConfiguration
    /// How many loads of the same state file may begin and never finish (crashed, killed, out of memory, timed
    /// out) before the next start sets the file aside and starts from the newest backup that loads; 0 turns the
    /// guard off. Applied at start.
    package var crashedLoadLimit: Int
    /// The state file of an earlier installation, imported once when there is no state file; `nil` turns the
    /// import off.
    package var legacyStatePath: String?
    /// `metrics.enabled`: whether metrics are kept and served at all. Applied at start.
    package var metricsEnabled = true
    /// `metrics.listen`: the TCP address Prometheus scrapes; `nil` serves none. Applied at start.
    package var metricsListen: MetricsListenAddress? = nil
    /// `metrics.allowRemote`: whether ``metricsListen`` may be other than loopback (checked at load).
    package var metricsAllowRemote = false
    /// `scrub.intervalHours`: how often the daemon scrubs; 0 only on request. Applied at start.
    package var scrubIntervalHours = ConfigurationKey.scrubIntervalHours.integerDefault
    /// `metrics.textfile`: where the metrics are written for node_exporter; `nil` writes none. Applied at start.
    package var metricsTextfile: String? = nil
    /// `metrics.textfileIntervalSeconds`. Applied at start.
    package var metricsTextfileInterval: Duration = .seconds(ConfigurationKey.metricsTextfileInterval.integerDefault)
    /// The lowest level that is logged.
    package var logLevel: Logger.Level
    /// The largest control API request body accepted, in bytes; larger ones get 413. Applied at start only.
    package var apiMaximumBodyBytes: Int
    /// The most control API connections open at once (before the open-file limit lowers it); applied at start only.
    package var apiMaximumConnections: Int
    /// How long a control API request may take to arrive whole from its first byte; applied at start only.
    package var apiRequestTimeout: Duration
    /// Who besides root and the daemon's own user may use the control API.
    package var access: AccessConfiguration
    /// Replication of the history off the host (the `replica.*` keys); `nil` when `replica.url` is empty. Applied at
    /// start.
    package var replica: ReplicaSettings?
    /// Unknown keys the load ignored (each is logged as a warning, shown in `STATUS=` and `/v1/status`).
    package var ignoredKeys: [IgnoredConfigurationKey] = []

    /// A configuration with the given values.
    package init(
        stateDirectory: String,
        controlSocketPath: String,
        saveDebounce: Duration = .milliseconds(ConfigurationKey.saveDebounce.integerDefault),
        saveMaximumDelay: Duration = .milliseconds(ConfigurationKey.saveMaximumDelay.integerDefault),
        corruptFilePolicy: CorruptFilePolicy = CorruptFilePolicy(
            rawValue: ConfigurationKey.corruptFilePolicy.textDefault)!,
        corruptFileFallback: CorruptFileFallback = CorruptFileFallback(
            rawValue: ConfigurationKey.corruptFileFallback.textDefault)!,
        backupsKept: Int = ConfigurationKey.backupsKept.integerDefault,
        history: HistoryConfiguration = HistoryConfiguration(
            keepSeconds: ConfigurationKey.historyKeepSeconds.integerDefault,
            maximumByteCount: ConfigurationKey.historyMaximumBytes.integerDefault),
        crashedLoadLimit: Int = DaemonConfiguration.defaultCrashedLoadLimit,
        legacyStatePath: String? = DaemonConfiguration.defaultLegacyStatePath,
        logLevel: Logger.Level = Logger.Level(rawValue: ConfigurationKey.logLevel.textDefault)!,
        apiMaximumBodyBytes: Int = DaemonConfiguration.defaultAPIMaximumBodyBytes,
        apiMaximumConnections: Int = DaemonConfiguration.defaultAPIMaximumConnections,
        apiRequestTimeout: Duration = DaemonConfiguration.defaultAPIRequestTimeout,
        access: AccessConfiguration = AccessConfiguration()
    ) {
        self.stateDirectory = stateDirectory
        self.controlSocketPath = controlSocketPath
        self.saveDebounce = saveDebounce
        self.saveMaximumDelay = saveMaximumDelay
        self.corruptFilePolicy = corruptFilePolicy
        self.corruptFileFallback = corruptFileFallback
        self.backupsKept = backupsKept
        self.history = history
        self.crashedLoadLimit = crashedLoadLimit
        self.legacyStatePath = legacyStatePath
        self.logLevel = logLevel
        self.apiMaximumBodyBytes = apiMaximumBodyBytes
        self.apiMaximumConnections = apiMaximumConnections
        self.apiRequestTimeout = apiRequestTimeout
        self.access = access
    }

    /// The default ``crashedLoadLimit`` (``ConfigurationKey/crashedLoadLimit``): 3, which with the unit's
    /// `StartLimitBurst=5` leaves the fourth start to set the file aside before systemd gives up.
    package static let defaultCrashedLoadLimit = ConfigurationKey.crashedLoadLimit.integerDefault

    /// The default ``apiMaximumBodyBytes`` (``ConfigurationKey/apiMaximumBodyBytes``): 1 MiB.
    package static let defaultAPIMaximumBodyBytes = ConfigurationKey.apiMaximumBodyBytes.integerDefault
    /// The default ``apiMaximumConnections`` (``ConfigurationKey/apiMaximumConnections``): 2048 (the unit's
    /// `LimitNOFILE=8192` leaves room for them).
    package static let defaultAPIMaximumConnections = ConfigurationKey.apiMaximumConnections.integerDefault
    /// The default ``apiRequestTimeout`` (``ConfigurationKey/apiRequestTimeout``): 30 s.
    package static let defaultAPIRequestTimeout = Duration.milliseconds(
        ConfigurationKey.apiRequestTimeout.integerDefault)

    /// Where earlier installations kept their state (``ConfigurationKey/legacyStatePath``).
    package static let defaultLegacyStatePath = ConfigurationKey.legacyStatePath.textDefault

    /// The state file: `workspace.json` in the state directory.
    package var statePath: String { stateDirectory + "/workspace.json" }

    /// The import of ``legacyStatePath``, marked by `imported-from-legacy` in the state directory and read from
    /// the copy `workspaced stage-legacy` leaves there (`.legacy-import.json`) when there is one; `nil` when off.
    package var legacyImport: StateImport? {
        legacyStatePath.map {
            StateImport(
                sourcePath: $0, stagedCopyPath: stateDirectory + "/.legacy-import.json",
                markerPath: stateDirectory + "/imported-from-legacy")
        }
    }
}

/// Users and groups, by numeric id, allowed to read or change the workspace through the control API, besides
/// root and the daemon's own user (who may always do both).
package struct AccessConfiguration: Sendable, Equatable {
    /// Users who may read.
    package var readUsers: Set<UInt32>
    /// Groups whose members may read.
    package var readGroups: Set<UInt32>
    /// Users who may change (and read).
    package var writeUsers: Set<UInt32>
    /// Groups whose members may change (and read).
    package var writeGroups: Set<UInt32>

    /// The given ids; none by default.
    package init(
        readUsers: Set<UInt32> = [], readGroups: Set<UInt32> = [], writeUsers: Set<UInt32> = [],
        writeGroups: Set<UInt32> = []
    ) {
        self.readUsers = readUsers
        self.readGroups = readGroups
        self.writeUsers = writeUsers
        self.writeGroups = writeGroups
    }
}
