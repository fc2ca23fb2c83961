import ArgumentParser
import FoundationEssentials
import Logging
import WorkspaceDaemon

/// `ExecStartPre=+workspaced stage-legacy`: copies a legacy state file the sandboxed daemon cannot read into the
/// state directory for the one-time import. Always exits 0, so a failure here never keeps the workspace from being
/// served: the daemon then says why the import could not run. An invalid configuration is the daemon's to refuse:
/// systemd applies `RestartPreventExitStatus=` to the main process only, so a 78 from here restarted the unit until
/// its start limit, taking the socket down with it.
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
            logger.notice("stage-legacy: skipped, the configuration is invalid (the daemon refuses to start): \(error)")
            return
        }
        let outcome = LegacyStaging.stage(configuration)
        if case .failed = outcome {
            logger.warning("stage-legacy: \(outcome)")
        } else {
            logger.info("stage-legacy: \(outcome)")
        }
    }
}
