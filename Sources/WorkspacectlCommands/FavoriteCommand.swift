import ArgumentParser
import WorkspaceAPI

/// `workspacectl favorite …`.
struct FavoriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "favorite", abstract: "List, add or remove favorite places.",
        subcommands: [List.self, Add.self, Remove.self], defaultSubcommand: List.self)

    /// The connection options, also accepted here (see ``ConnectionOptions``).
    @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the favorites.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions

        func run() async throws {
            try await connection.perform({ try await $0.favorites() }) { favorites in
                favorites.isEmpty ? "(no favorites)" : favorites.map(Formatting.favorite).joined(separator: "\n")
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a favorite place.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: "1–256 characters, no control characters.") var name: String
        @Argument(help: "An absolute path.", completion: .directory) var path: String

        func run() async throws {
            try await connection.perform({
                try await $0.addFavorite(name: name, path: path, durable: change.durable, ifMatch: change.ifMatch)
            }) { "added favorite \($0.value.map { "\($0.id)" } ?? "?") at \(Formatting.revision($0))" }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a favorite.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: IDArgument.help(.favorite)) var id: IDArgument

        func run() async throws {
            try await connection.perform(resolving: id, as: .favorite) {
                try await $0.removeFavorite(id: $1, durable: change.durable, ifMatch: change.ifMatch)
            } human: {
                "removed favorite \($1) at \(Formatting.revision($0))"
            }
        }
    }
}
