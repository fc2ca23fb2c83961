import ArgumentParser
import WorkspaceAPI

/// `workspacectl active …`.
struct ActiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "active", abstract: "Show, set or clear the active project.",
        subcommands: [Get.self, Set.self, Clear.self], defaultSubcommand: Get.self)

    /// The connection options, also accepted here (see ``ConnectionOptions``).
    @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the active project's id.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions

        func run() async throws {
            try await connection.perform({ ActiveProjectResponse(projectID: try await $0.activeProject()) }) {
                $0.projectID.map { "\($0)" } ?? "(no active project)"
            }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a project the active one.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: IDArgument.help(.project)) var id: IDArgument

        func run() async throws {
            try await connection.perform(resolving: id, as: .project) {
                try await $0.setActiveProject($1, durable: change.durable, ifMatch: change.ifMatch)
            } human: {
                "active project is \($1) at \(Formatting.revision($0))"
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make no project active.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags

        func run() async throws {
            try await connection.perform({
                try await $0.setActiveProject(nil, durable: change.durable, ifMatch: change.ifMatch)
            }) { "no active project at \(Formatting.revision($0))" }
        }
    }
}
