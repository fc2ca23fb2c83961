import ArgumentParser
import WorkspaceAPI

/// `workspacectl owner …`.
struct OwnerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "owner", abstract: "Show or set the workspace's owner.", subcommands: [Show.self, Set.self],
        defaultSubcommand: Show.self)

    /// The connection options, also accepted here (see ``ConnectionOptions``).
    @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the owner's alias and email.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions

        func run() async throws {
            try await connection.perform({ try await $0.owner() }) { Formatting.owner($0) }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set the owner's alias and/or email.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Option(help: "A new alias.") var alias: String?
        @Option(help: "A new email (local@domain; empty to clear).") var email: String?

        func validate() throws {
            guard alias != nil || email != nil else { throw ValidationError("give --alias and/or --email") }
        }

        func run() async throws {
            try await connection.perform({
                try await $0.updateOwner(alias: alias, email: email, durable: change.durable, ifMatch: change.ifMatch)
            }) { "owner is \($0.value.map(Formatting.owner) ?? "?") at \(Formatting.revision($0))" }
        }
    }
}
