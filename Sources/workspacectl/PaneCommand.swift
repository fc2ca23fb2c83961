import ArgumentParser
import WorkspaceClient

/// `workspacectl pane …`.
struct PaneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pane", abstract: "Add, remove, or set the folder and view mode of panes.",
        subcommands: [Add.self, Remove.self, Set.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a pane to a project.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: "The project's id.") var project: IDArgument
        @Argument(help: "An absolute path.", completion: .directory) var folder: String
        @Option(help: "list, icons or columns (default list).") var viewMode: ViewModeArgument?

        func run() async throws {
            try await connection.perform({
                try await $0.addPane(
                    projectID: project.id, folder: folder, viewMode: viewMode?.viewMode, durable: change.durable,
                    ifMatch: change.ifMatch)
            }) { "added pane \($0.value.map { "\($0.id)" } ?? "?") at \(Formatting.revision($0))" }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a pane with its tabs.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: "The pane's id.") var id: IDArgument

        func run() async throws {
            try await connection.perform({
                try await $0.removePane(id: id.id, durable: change.durable, ifMatch: change.ifMatch)
            }) { "removed pane \(id.id) at \(Formatting.revision($0))" }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set a pane's folder and/or view mode.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: "The pane's id.") var id: IDArgument
        @Option(help: "A new absolute path.", completion: .directory) var folder: String?
        @Option(help: "list, icons or columns.") var viewMode: ViewModeArgument?

        func validate() throws {
            guard folder != nil || viewMode != nil else { throw ValidationError("give --folder and/or --view-mode") }
        }

        func run() async throws {
            try await connection.perform({
                try await $0.updatePane(
                    id: id.id, folder: folder, viewMode: viewMode?.viewMode, durable: change.durable,
                    ifMatch: change.ifMatch)
            }) { "updated pane \(id.id) at \(Formatting.revision($0))" }
        }
    }
}
