import ArgumentParser
import Foundation
import WorkspaceDaemon

/// Flags that override the config file and `WORKSPACED_*` variables.
struct ConfigOptions: ParsableArguments {
    @Option(help: "The config file (default $CONFIGURATION_DIRECTORY/config.json, else /etc/workspaced/config.json).")
    var config: String?

    @Option(help: "Directory of workspace.json.")
    var stateDirectory: String?

    @Option(help: "Path of the control socket.")
    var controlSocket: String?

    @Option(help: "Quiet time after a change before saving, in milliseconds.")
    var saveDebounceMs: Int?

    @Option(help: "Longest time a change stays unsaved, in milliseconds.")
    var saveMaximumDelayMs: Int?

    @Option(help: "quarantine or refuse an unreadable state file.")
    var corruptFilePolicy: String?

    @Option(help: "Pre-migration backups kept.")
    var backupsKept: Int?

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String?

    @Option(help: "Largest control API request body, in bytes (1024–67108864); larger ones get 413.")
    var apiMaximumBodyBytes: Int?

    /// The configuration sources: these flags, the process environment and the config file.
    func sources() -> ConfigurationSources {
        var overrides: [String: ConfigurationSources.Override] = [:]
        if let stateDirectory { overrides[ConfigurationKey.stateDirectory.name] = .string(stateDirectory) }
        if let controlSocket { overrides[ConfigurationKey.controlSocket.name] = .string(controlSocket) }
        if let saveDebounceMs { overrides[ConfigurationKey.saveDebounce.name] = .integer(saveDebounceMs) }
        if let saveMaximumDelayMs { overrides[ConfigurationKey.saveMaximumDelay.name] = .integer(saveMaximumDelayMs) }
        if let corruptFilePolicy { overrides[ConfigurationKey.corruptFilePolicy.name] = .string(corruptFilePolicy) }
        if let backupsKept { overrides[ConfigurationKey.backupsKept.name] = .integer(backupsKept) }
        if let logLevel { overrides[ConfigurationKey.logLevel.name] = .string(logLevel) }
        if let apiMaximumBodyBytes {
            overrides[ConfigurationKey.apiMaximumBodyBytes.name] = .integer(apiMaximumBodyBytes)
        }
        return ConfigurationSources(
            configFile: config, environment: ProcessInfo.processInfo.environment, overrides: overrides)
    }
}
