import ArgumentParser
import Foundation
import Logging
import WorkspaceDaemon

/// `ExecStartPre=+workspaced stage-legacy`: copies a legacy state file the sandboxed daemon cannot read into the
/// state directory for the one-time import. Exits 0 unless the configuration is invalid (78), so a failure here
/// never keeps the workspace from being served: the daemon then says why the import could not run.
struct StageLegacy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stage-legacy",
        abstract: "As root before the daemon starts: copy legacyStatePath into the state directory for its import.")

    @OptionGroup var options: ConfigOptions

    func run() async throws {
        // The same logging as the daemon: under systemd, journal entries with SYSLOG_IDENTIFIER=workspaced.
        _ = DaemonLogging.bootstrap(level: .info)
        let logger = Logger(label: "workspaced.stage-legacy")
        let configuration: DaemonConfiguration
        do {
            configuration = try await ConfigurationLoader.load(options.sources())
        } catch {
            logger.critical("stage-legacy: refusing to run: \(error)")
            throw ExitCode(ConfigurationError.exitCode)
        }
        let outcome = LegacyStaging.stage(configuration)
        if case .failed = outcome {
            logger.warning("stage-legacy: \(outcome)")
        } else {
            logger.info("stage-legacy: \(outcome)")
        }
    }
}
