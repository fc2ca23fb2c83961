import ArgumentParser
import WorkspaceClient

/// `workspacectl favorite …`.
struct FavoriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "favorite", abstract: "List, add or remove favorite places.",
        subcommands: [List.self, Add.self, Remove.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the favorites.")
        @OptionGroup var connection: ConnectionOptions

        func run() async throws {
            try await connection.perform({ try await $0.favorites() }) { favorites in
                favorites.isEmpty ? "(no favorites)" : favorites.map(Formatting.favorite).joined(separator: "\n")
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a favorite place.")
        @OptionGroup var connection: ConnectionOptions
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
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: "The favorite's id.") var id: IDArgument

        func run() async throws {
            try await connection.perform({
                try await $0.removeFavorite(id: id.id, durable: change.durable, ifMatch: change.ifMatch)
            }) { "removed favorite \(id.id) at \(Formatting.revision($0))" }
        }
    }
}
