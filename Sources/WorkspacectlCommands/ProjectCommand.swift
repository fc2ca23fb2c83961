import ArgumentParser
import WorkspaceAPI

/// `workspacectl project …`.
struct ProjectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project", abstract: "List, show, create, rename, change the layout of, or delete projects.",
        subcommands: [List.self, Get.self, Create.self, Rename.self, SetLayout.self, Delete.self],
        defaultSubcommand: List.self)

    /// The connection options, also accepted here (see ``ConnectionOptions``).
    @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the projects with their panes and tabs.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions

        func run() async throws {
            try await connection.perform({ try await $0.projects() }) { projects in
                projects.isEmpty ? "(no projects)" : projects.map { Formatting.project($0) }.joined(separator: "\n")
            }
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one project.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions
        @Argument(help: IDArgument.help(.project)) var id: IDArgument

        func run() async throws {
            try await connection.perform(resolving: id, as: .project) {
                try await $0.project(id: $1)
            } human: { project, _ in
                Formatting.project(project)
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a project without panes.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: "1–256 characters, no control characters.") var name: String
        @Option(help: "single, split or quad.") var layout = LayoutArgument(argument: "single")!

        func run() async throws {
            try await connection.perform({
                try await $0.createProject(
                    name: name, layout: layout.layout, durable: change.durable, ifMatch: change.ifMatch)
            }) { "created project \($0.value.map { "\($0.id)" } ?? "?") at \(Formatting.revision($0))" }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a project.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: IDArgument.help(.project)) var id: IDArgument
        @Argument(help: "The new name.") var name: String

        func run() async throws {
            try await connection.perform(resolving: id, as: .project) {
                try await $0.renameProject(id: $1, name: name, durable: change.durable, ifMatch: change.ifMatch)
            } human: {
                "renamed project \($1) at \(Formatting.revision($0))"
            }
        }
    }

    struct SetLayout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "layout", abstract: "Change a project's layout.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: IDArgument.help(.project)) var id: IDArgument
        @Argument(help: "single, split or quad.") var layout: LayoutArgument

        func run() async throws {
            try await connection.perform(resolving: id, as: .project) {
                try await $0.setProjectLayout(
                    id: $1, layout: layout.layout, durable: change.durable, ifMatch: change.ifMatch)
            } human: {
                "project \($1) now uses \(layout.layout.rawValue) at \(Formatting.revision($0))"
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a project with its panes and tabs.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: IDArgument.help(.project)) var id: IDArgument

        func run() async throws {
            try await connection.perform(resolving: id, as: .project) {
                try await $0.deleteProject(id: $1, durable: change.durable, ifMatch: change.ifMatch)
            } human: {
                "deleted project \($1) at \(Formatting.revision($0))"
            }
        }
    }
}
