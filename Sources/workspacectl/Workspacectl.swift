import ArgumentParser
import WorkspaceClient

/// `workspacectl`: reads and changes the workspace through workspaced's control socket.
@main
struct Workspacectl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workspacectl",
        abstract: "Read and change the workspace kept by workspaced, through its control socket.",
        discussion: """
            Exit codes: 0 ok; 1 refused by the daemon (its message is printed); 69 the daemon cannot be reached; \
            76 the daemon's answer is not what the API promises. Shell completions: \
            workspacectl --generate-completion-script bash|zsh|fish.
            """,
        version: Release.version,
        subcommands: [
            StatusCommand.self, ShowCommand.self, ProjectCommand.self, PaneCommand.self, TabCommand.self,
            FavoriteCommand.self, ActiveCommand.self, OwnerCommand.self, FlushCommand.self, TokenCommand.self,
        ]
    )
}
