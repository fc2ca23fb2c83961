import ArgumentParser
import Foundation
import WorkspaceDaemon

/// Validates the configuration without starting.
struct CheckConfig: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config", abstract: "Validate the configuration and print it; exit 78 when invalid.")

    @OptionGroup var options: ConfigOptions

    func run() async throws {
        do {
            let resolved = try await ConfigurationLoader.load(options.sources())
            print("state directory:    \(resolved.stateDirectory)")
            print("control socket:     \(resolved.controlSocketPath)")
            print("save debounce:      \(resolved.saveDebounce)")
            print("save maximum delay: \(resolved.saveMaximumDelay)")
            print("corrupt file:       \(resolved.corruptFilePolicy.rawValue)")
            print("backups kept:       \(resolved.backupsKept)")
            print("legacy state file:  \(resolved.legacyStatePath ?? "(import off)")")
            print("log level:          \(resolved.logLevel)")
            print("API body limit:     \(resolved.apiMaximumBodyBytes) bytes")
        } catch {
            FileHandle.standardError.write(Data("workspaced: \(error)\n".utf8))
            throw ExitCode(ConfigurationError.exitCode)
        }
    }
}

/// Inspects a state file.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Report what loading a state file would do, and what a salvage would drop; exit 0 loadable as it is, "
            + "65 not loadable as it is (salvageable or corrupt), 75 newer than this release.")

    @Option(help: "The state file.")
    var state: String

    @Flag(help: "Print the report as JSON (on standard output, whatever the exit status).")
    var json = false

    func run() throws {
        let outcome = OfflineTools.check(statePath: state, json: json)
        guard json else { return try finish(outcome) }
        print(outcome.text)
        if outcome.status != 0 { throw ExitCode(outcome.status) }
    }
}

/// Migrates a state file offline.
struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Migrate a state file to the current version in place, keeping the pre-migration backup.")

    @Option(help: "The state file.")
    var state: String

    @Flag(help: "Print the migrated JSON and write nothing.")
    var dryRun = false

    func run() throws { try finish(OfflineTools.migrate(statePath: state, dryRun: dryRun)) }
}

/// Lists or restores backups.
struct Backups: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the backups in a state directory, or restore one (with the daemon stopped).")

    @Option(help: "The state directory.")
    var stateDir: String

    @Option(help: "The backup to restore, as listed.")
    var restore: String?

    func run() throws {
        if let restore {
            try finish(OfflineTools.restoreBackup(named: restore, stateDirectory: stateDir))
        } else {
            try finish(OfflineTools.listBackups(stateDirectory: stateDir))
        }
    }
}

/// Prints an outcome (to stderr when it failed) and exits with its status.
func finish(_ outcome: OfflineTools.Outcome) throws {
    if outcome.status == 0 {
        print(outcome.text)
    } else {
        FileHandle.standardError.write(Data((outcome.text + "\n").utf8))
        throw ExitCode(outcome.status)
    }
}
