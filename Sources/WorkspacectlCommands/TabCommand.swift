import ArgumentParser
import WorkspaceAPI

/// `workspacectl tab …`.
struct TabCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tab", abstract: "Open, close or focus tabs.", subcommands: [Open.self, Close.self, Focus.self])

    /// The connection options, also accepted here (see ``ConnectionOptions``).
    @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions

    struct Open: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Open a tab in a pane; it becomes the focused one.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: IDArgument.help(.pane)) var pane: IDArgument
        @Argument(help: "An absolute path.", completion: .directory) var folder: String

        func run() async throws {
            try await connection.perform(resolving: pane, as: .pane) {
                try await $0.openTab(paneID: $1, folder: folder, durable: change.durable, ifMatch: change.ifMatch)
            } human: { change, _ in
                "opened tab \(change.value.map { "\($0.id)" } ?? "?") at \(Formatting.revision(change))"
            }
        }
    }

    struct Close: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Close a tab.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: IDArgument.help(.tab)) var id: IDArgument

        func run() async throws {
            try await connection.perform(resolving: id, as: .tab) {
                try await $0.closeTab(id: $1, durable: change.durable, ifMatch: change.ifMatch)
            } human: {
                "closed tab \($1) at \(Formatting.revision($0))"
            }
        }
    }

    struct Focus: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Focus a tab in its pane.")
        @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: IDArgument.help(.tab)) var id: IDArgument

        func run() async throws {
            try await connection.perform(resolving: id, as: .tab) {
                try await $0.focusTab(id: $1, durable: change.durable, ifMatch: change.ifMatch)
            } human: {
                "focused tab \($1) at \(Formatting.revision($0))"
            }
        }
    }
}
