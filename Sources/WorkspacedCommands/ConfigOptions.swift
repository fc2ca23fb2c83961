import ArgumentParser
import FoundationEssentials
import Glibc
import Systemd
import WorkspaceDaemon

/// Flags that override the config file and `WORKSPACED_*` variables. Whole-number flags are taken as text and
/// checked by the configuration loader, so a bad value exits 78 naming the key like any other bad configuration
/// (the argument parser would exit 64, which systemd's `RestartPreventExitStatus=78` does not stop).
struct ConfigOptions: ParsableArguments {
    @Option(help: "The config file (default $CONFIGURATION_DIRECTORY/config.json, else /etc/workspaced/config.json).")
    var config: String?

    @Option(help: "Directory of workspace.json.")
    var stateDirectory: String?

    @Option(help: "Path of the control socket.")
    var controlSocket: String?

    @Option(help: "Quiet time after a change before saving, in milliseconds.")
    var saveDebounceMs: String?

    @Option(help: "Longest time a change stays unsaved, in milliseconds.")
    var saveMaximumDelayMs: String?

    @Option(help: "salvage (default), quarantine or refuse an unreadable state file.")
    var corruptFilePolicy: String?

    @Option(help: "newest-backup (default) or initial-state: what serves when a corrupt state file is set aside.")
    var corruptFileFallback: String?

    @Option(help: "Pre-migration backups kept.")
    var backupsKept: String?

    @Option(help: "How long the history keeps changes, in seconds (default 604800, 7 days); 0 turns history off.")
    var historyKeepSeconds: String?

    @Option(help: "Largest the history may grow, in bytes (default 67108864, 64 MiB); 0 turns history off.")
    var historyMaximumBytes: String?

    @Option(help: "Loads of the same state file that may never finish before it is set aside (0 turns it off).")
    var crashedLoadLimit: String?

    @Option(
        help: "State file of an earlier installation, imported once when there is no state file; \"\" turns it off.")
    var legacyStatePath: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String?

    @Option(help: "Largest control API request body, in bytes (1024–67108864); larger ones get 413.")
    var apiMaximumBodyBytes: String?

    /// The configuration sources: these flags, `environment` (by default the process's own) and the config file.
    func sources(environment: [String: String] = ProcessInfo.processInfo.environment) -> ConfigurationSources {
        var overrides: [String: ConfigurationSources.Override] = [:]
        if let stateDirectory { overrides[ConfigurationKey.stateDirectory.name] = .string(stateDirectory) }
        if let controlSocket { overrides[ConfigurationKey.controlSocket.name] = .string(controlSocket) }
        if let saveDebounceMs { overrides[ConfigurationKey.saveDebounce.name] = .string(saveDebounceMs) }
        if let saveMaximumDelayMs { overrides[ConfigurationKey.saveMaximumDelay.name] = .string(saveMaximumDelayMs) }
        if let corruptFilePolicy { overrides[ConfigurationKey.corruptFilePolicy.name] = .string(corruptFilePolicy) }
        if let corruptFileFallback {
            overrides[ConfigurationKey.corruptFileFallback.name] = .string(corruptFileFallback)
        }
        if let backupsKept { overrides[ConfigurationKey.backupsKept.name] = .string(backupsKept) }
        if let historyKeepSeconds {
            overrides[ConfigurationKey.historyKeepSeconds.name] = .string(historyKeepSeconds)
        }
        if let historyMaximumBytes {
            overrides[ConfigurationKey.historyMaximumBytes.name] = .string(historyMaximumBytes)
        }
        if let crashedLoadLimit { overrides[ConfigurationKey.crashedLoadLimit.name] = .string(crashedLoadLimit) }
        if let legacyStatePath { overrides[ConfigurationKey.legacyStatePath.name] = .string(legacyStatePath) }
        if let logLevel { overrides[ConfigurationKey.logLevel.name] = .string(logLevel) }
        if let apiMaximumBodyBytes {
            overrides[ConfigurationKey.apiMaximumBodyBytes.name] = .string(apiMaximumBodyBytes)
        }
        return ConfigurationSources(
            configFile: config, environment: environment, overrides: overrides)
    }
}

/// Where an offline tool (`check`, `migrate`, `backups`) finds the state: `--state-directory`, else the directory
/// the daemon is configured with, found as the daemon finds it (`--config` or the default config file,
/// `WORKSPACED_STATE_DIRECTORY`, `$STATE_DIRECTORY`, `/var/lib/workspaced`). Same flag names as the daemon's.
struct StateDirectoryOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The config file to find the state directory in, when --state-directory is not given (default "
                + "$CONFIGURATION_DIRECTORY/config.json, else /etc/workspaced/config.json).", valueName: "file"),
        completion: .file())
    var config: String?

    @Option(
        help: ArgumentHelp(
            "Directory of workspace.json (default: the configured one, as the daemon finds it).", valueName: "dir"),
        completion: .directory)
    var stateDirectory: String?

    /// Whether either flag was given.
    var isGiven: Bool { config != nil || stateDirectory != nil }

    /// The state directory (`--state-directory`, else `earlierFlag`, the value of a flag's earlier name, else the
    /// configured one); an invalid configuration is reported (naming the key) and exits 78, as the daemon.
    func resolve(tool: String, earlierFlag: String? = nil) async throws -> String {
        try await Self.resolve(
            explicit: stateDirectory ?? earlierFlag,
            sources: ConfigurationSources(configFile: config, environment: ProcessInfo.processInfo.environment),
            tool: tool)
    }

    /// ``OfflineTools/stateDirectory(explicit:sources:)``, reporting a refused configuration on standard error as
    /// `workspaced TOOL: …` and exiting 78.
    static func resolve(explicit: String?, sources: ConfigurationSources, tool: String) async throws -> String {
        do {
            return try await OfflineTools.stateDirectory(explicit: explicit, sources: sources)
        } catch {
            LineWriter.write("workspaced \(tool): \(error)\n", to: STDERR_FILENO)
            throw ExitCode(ConfigurationError.exitCode)
        }
    }
}
