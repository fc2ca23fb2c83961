import ArgumentParser
import WorkspaceAPI

/// `workspaced`: the daemon (`run`, the default) and its offline tools. The `workspaced` executable runs it
/// (``main(seams:)`` with the shipped seams); the test executable runs it with its hooks.
package struct Workspaced: AsyncParsableCommand {
    /// The command's name, help, version and subcommands.
    package static let configuration = CommandConfiguration(
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

    /// The command before parsing (argument-parser fills in the options).
    package init() {}
}
