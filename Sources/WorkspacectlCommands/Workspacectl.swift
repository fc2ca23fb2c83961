import ArgumentParser
import WorkspaceAPI

/// `workspacectl`: reads and changes the workspace through workspaced's control socket. The `workspacectl`
/// executable runs it (`await Workspacectl.main()`); tests parse and run it in-process.
package struct Workspacectl: AsyncParsableCommand {
    /// The command's name, help, version and subcommands.
    package static let configuration = CommandConfiguration(
        commandName: "workspacectl",
        abstract: "Read and change the workspace kept by workspaced, through its control socket.",
        discussion: """
            Connection options (--socket, --timeout, --json, --token, --token-file) go before or after the \
            subcommand, at any level: `workspacectl --json project list` is `workspacectl project list --json`. \
            Given both before and after, the one after the subcommand wins (the last one given). Record ids may be \
            a unique prefix of at least 4 hex digits, as with git; an ambiguous prefix lists its matches (exit 64).

            Exit codes: 0 ok; 1 refused by the daemon (its message is printed), or no record has the id; 64 bad \
            command line or ambiguous id prefix; 69 the daemon cannot be reached; 76 the daemon's answer is not \
            what the API promises. Shell completions: workspacectl --generate-completion-script bash|zsh|fish.
            """,
        version: Release.version,
        subcommands: [
            StatusCommand.self, ShowCommand.self, ProjectCommand.self, PaneCommand.self, TabCommand.self,
            FavoriteCommand.self, ActiveCommand.self, OwnerCommand.self, FlushCommand.self, HistoryCommand.self,
            RestoreCommand.self, UndoCommand.self, TokenCommand.self, WatchCommand.self,
        ]
    )

    /// The connection options given before the subcommand (and, the parser reading them anywhere, after it);
    /// every subcommand's own ``ConnectionOptions`` group is this same value.
    @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions

    /// The command before parsing (argument-parser fills in the options).
    package init() {}
}
