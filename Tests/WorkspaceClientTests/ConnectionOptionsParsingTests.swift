import ArgumentParser
import Foundation
import Testing
import WorkspaceAPI
import WorkspaceClient

@testable import WorkspacectlCommands

@Suite("workspacectl's connection options before and after the subcommand")
struct ConnectionOptionsParsingTests {
    /// The connection options of the command `arguments` parse to, which must be of type `Command`.
    func options<Command: ParsableCommand>(
        _ arguments: [String], as type: Command.Type, _ connection: (Command) -> ConnectionOptions
    ) throws -> ConnectionOptions {
        let parsed = try Workspacectl.parseAsRoot(arguments)
        let command = try #require(parsed as? Command, "\(arguments) parsed as \(Swift.type(of: parsed))")
        return connection(command)
    }

    @Test("each option is accepted before the subcommand, after it, and between nested subcommands")
    func everyPosition() throws {
        for arguments in [
            ["--json", "--socket", "/s", "--timeout", "5", "--token", "t", "project", "list"],
            ["project", "list", "--json", "--socket", "/s", "--timeout", "5", "--token", "t"],
            ["project", "--json", "--socket", "/s", "list", "--timeout", "5", "--token", "t"],
            ["--json", "project", "--socket=/s", "list", "--timeout=5", "--token", "t"],
        ] {
            let connection = try options(arguments, as: ProjectCommand.List.self) { $0.connection }
            #expect(connection.json, "\(arguments)")
            #expect(connection.socket == "/s", "\(arguments)")
            #expect(connection.timeout == 5, "\(arguments)")
            #expect(connection.token == "t", "\(arguments)")
        }
        let status = try options(["--socket", "/a", "status"], as: StatusCommand.self) { $0.connection }
        #expect(status.socket == "/a")
        #expect(!status.json)
        #expect(status.timeout == 30)
    }

    @Test("given before and after the subcommand, the one after wins (the last one given)")
    func afterWins() throws {
        let connection = try options(
            ["--socket", "/before", "--timeout", "1", "owner", "show", "--socket", "/after", "--timeout", "2"],
            as: OwnerCommand.Show.self
        ) { $0.connection }
        #expect(connection.socket == "/after")
        #expect(connection.timeout == 2)
        let nested = try options(
            ["--socket", "/root", "project", "--socket", "/group", "delete", "3f25", "--socket", "/leaf"],
            as: ProjectCommand.Delete.self
        ) { $0.connection }
        #expect(nested.socket == "/leaf")
    }

    @Test("the root, the group and the subcommand see the same options")
    func sameValueEverywhere() throws {
        let parsed = try Workspacectl.parseAsRoot(["--json", "tab", "close", "0d4b", "--socket", "/s", "--durable"])
        let close = try #require(parsed as? TabCommand.Close)
        #expect(close.connection.json && close.connection.socket == "/s")
        #expect(close.change.durable)
        #expect(close.id.reference == IDReference("0d4b"))
    }

    @Test("a default subcommand takes options given before or after its group")
    func defaultSubcommand() throws {
        let before = try options(["--json", "favorite"], as: FavoriteCommand.List.self) { $0.connection }
        #expect(before.json)
        let after = try options(["token", "--socket", "/s"], as: TokenCommand.List.self) { $0.connection }
        #expect(after.socket == "/s")
    }

    @Test("the options' own checks apply wherever they are given")
    func validation() throws {
        #expect(throws: (any Error).self) { try Workspacectl.parseAsRoot(["--timeout", "0", "status"]) }
        #expect(throws: (any Error).self) { try Workspacectl.parseAsRoot(["status", "--timeout", "-1"]) }
        #expect(throws: (any Error).self) {
            try Workspacectl.parseAsRoot(["--token", "t", "status", "--token-file", "/etc/hostname"])
        }
        #expect(throws: (any Error).self) { try Workspacectl.parseAsRoot(["status", "--no-such-option"]) }
        let exit = Workspacectl.exitCode(for: ValidationError("x"))
        #expect(exit.rawValue == ExitStatus.usage.rawValue)
    }

    @Test("--help shows the connection options at every level, under a heading that says where they go")
    func help() {
        let heading = ConnectionOptions.title.uppercased()
        for command: ParsableCommand.Type in [
            Workspacectl.self, StatusCommand.self, ProjectCommand.self, ProjectCommand.Rename.self,
            TabCommand.Open.self, TokenCommand.Revoke.self,
        ] {
            let help = Workspacectl.helpMessage(for: command, columns: 200)
            #expect(help.contains(heading), "\(command)")
            for option in ["--socket <path>", "--timeout <s>", "--json", "--token <token>", "--token-file <path>"] {
                #expect(help.contains(option), "\(command) help lacks \(option)")
            }
        }
        let root = Workspacectl.helpMessage(columns: 200)
        #expect(root.contains("the one after the subcommand wins"))
        #expect(root.contains("unique prefix"))
        #expect(Workspacectl.helpMessage(for: ProjectCommand.Rename.self, columns: 200).contains("<project-id>"))
    }

    @Test("shell completions offer the options at the root and in the subcommands")
    func completions() {
        // fish's script names long options without their dashes, values with a trailing `=`.
        for (shell, socket, tokenFile) in [
            (CompletionShell.bash, "--socket", "--token-file"), (.zsh, "--socket", "--token-file"),
            (.fish, "'socket='", "'token-file='"),
        ] {
            let script = Workspacectl.completionScript(for: shell)
            #expect(script.contains(socket), "\(shell)")
            #expect(script.contains(tokenFile), "\(shell)")
        }
    }
}
