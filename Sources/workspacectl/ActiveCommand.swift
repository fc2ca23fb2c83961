import ArgumentParser
import WorkspaceClient

/// `workspacectl active …`.
struct ActiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "active", abstract: "Show, set or clear the active project.",
        subcommands: [Get.self, Set.self, Clear.self], defaultSubcommand: Get.self)

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the active project's id.")
        @OptionGroup var connection: ConnectionOptions

        func run() async throws {
            try await connection.perform({ ActiveProjectResponse(projectID: try await $0.activeProject()) }) {
                $0.projectID.map { "\($0)" } ?? "(no active project)"
            }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a project the active one.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: "The project's id.") var id: IDArgument

        func run() async throws {
            try await connection.perform({
                try await $0.setActiveProject(id.id, durable: change.durable, ifMatch: change.ifMatch)
            }) { "active project is \(id.id) at \(Formatting.revision($0))" }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make no project active.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags

        func run() async throws {
            try await connection.perform({
                try await $0.setActiveProject(nil, durable: change.durable, ifMatch: change.ifMatch)
            }) { "no active project at \(Formatting.revision($0))" }
        }
    }
}
