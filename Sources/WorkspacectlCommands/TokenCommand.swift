import ArgumentParser
import WorkspaceAPI

/// `workspacectl token …`: API tokens, managed by root (by its peer credentials, not with a token).
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Create, list or revoke API tokens (as root).",
        subcommands: [List.self, Create.self, Revoke.self], defaultSubcommand: List.self)

    /// The connection options, also accepted here (see ``ConnectionOptions``).
    @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the tokens, revoked ones included.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions

        func run() async throws {
            try await connection.perform({ try await $0.tokens() }) { tokens in
                tokens.isEmpty ? "(no tokens)" : tokens.map(Formatting.token).joined(separator: "\n")
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a token and print it (it is shown this once).")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions
        @Argument(help: "What the token is for: 1–256 characters, no control characters.") var name: String
        @Option(help: "read (GET and HEAD only) or write (reads and changes).") var scope: ScopeArgument

        func run() async throws {
            try await connection.perform({ try await $0.createToken(name: name, scope: scope.rawValue) }) {
                """
                \($0.token)
                created \($0.info.scope) token \($0.info.id) ("\($0.info.name)"): the token above is shown only \
                this once; give it to the client (e.g. as WORKSPACED_TOKEN)
                """
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a token: it is refused from now on.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions
        @Argument(help: "The token's id (12 hex digits, as listed).") var id: String

        func run() async throws {
            try await connection.perform({ try await $0.revokeToken(id: id) }) {
                "revoked token \($0.id) (\"\($0.name)\")"
            }
        }
    }
}

/// A token scope on the command line: `read` or `write`.
struct ScopeArgument: ExpressibleByArgument, Sendable {
    /// `read` or `write`.
    let rawValue: String

    init?(argument: String) {
        guard Self.allValueStrings.contains(argument) else { return nil }
        rawValue = argument
    }

    static var allValueStrings: [String] { ["read", "write"] }
}
