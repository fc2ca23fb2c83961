import ArgumentParser
import WorkspaceAPI

/// `workspaced`: the daemon (`run`, the default) and its offline tools.
@main
struct Workspaced: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workspaced",
        abstract:
            "Keeps workspace state (projects, panes, tabs, favorites, owner) durable across upgrades and crashes.",
        version: Release.version,
        subcommands: [
            Run.self, CheckConfig.self, Reload.self, Check.self, Verify.self, Migrate.self, Backup.self, Backups.self,
            StageLegacy.self,
            SecretsCommand.self, Restore.self, ReplicaCommand.self,
            ConfigurationManual.self,
        ],
        defaultSubcommand: Run.self
    )
}
