import ArgumentParser
import WorkspaceAPI

/// `workspacectl pane …`.
struct PaneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pane", abstract: "Add, remove, or set the folder and view mode of panes.",
        subcommands: [Add.self, Remove.self, Set.self])

    /// The connection options, also accepted here (see ``ConnectionOptions``).
    @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a pane to a project.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: IDArgument.help(.project)) var project: IDArgument
        @Argument(help: "An absolute path.", completion: .directory) var folder: String
        @Option(help: "list, icons or columns (default list).") var viewMode: ViewModeArgument?

        func run() async throws {
            try await connection.perform(resolving: project, as: .project) {
                try await $0.addPane(
                    projectID: $1, folder: folder, viewMode: viewMode?.viewMode, durable: change.durable,
                    ifMatch: change.ifMatch)
            } human: { change, _ in
                "added pane \(change.value.map { "\($0.id)" } ?? "?") at \(Formatting.revision(change))"
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a pane with its tabs.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: IDArgument.help(.pane)) var id: IDArgument

        func run() async throws {
            try await connection.perform(resolving: id, as: .pane) {
                try await $0.removePane(id: $1, durable: change.durable, ifMatch: change.ifMatch)
            } human: {
                "removed pane \($1) at \(Formatting.revision($0))"
            }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set a pane's folder and/or view mode.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: IDArgument.help(.pane)) var id: IDArgument
        @Option(help: "A new absolute path.", completion: .directory) var folder: String?
        @Option(help: "list, icons or columns.") var viewMode: ViewModeArgument?

        func validate() throws {
            guard folder != nil || viewMode != nil else { throw ValidationError("give --folder and/or --view-mode") }
        }

        func run() async throws {
            try await connection.perform(resolving: id, as: .pane) {
                try await $0.updatePane(
                    id: $1, folder: folder, viewMode: viewMode?.viewMode, durable: change.durable,
                    ifMatch: change.ifMatch)
            } human: {
                "updated pane \($1) at \(Formatting.revision($0))"
            }
        }
    }
}
