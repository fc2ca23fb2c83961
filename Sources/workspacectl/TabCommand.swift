import ArgumentParser
import WorkspaceClient

/// `workspacectl tab …`.
struct TabCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tab", abstract: "Open, close or focus tabs.", subcommands: [Open.self, Close.self, Focus.self])

    struct Open: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Open a tab in a pane; it becomes the focused one.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: "The pane's id.") var pane: IDArgument
        @Argument(help: "An absolute path.", completion: .directory) var folder: String

        func run() async throws {
            try await connection.perform({
                try await $0.openTab(paneID: pane.id, folder: folder, durable: change.durable, ifMatch: change.ifMatch)
            }) { "opened tab \($0.value.map { "\($0.id)" } ?? "?") at \(Formatting.revision($0))" }
        }
    }

    struct Close: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Close a tab.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: "The tab's id.") var id: IDArgument

        func run() async throws {
            try await connection.perform({
                try await $0.closeTab(id: id.id, durable: change.durable, ifMatch: change.ifMatch)
            }) { "closed tab \(id.id) at \(Formatting.revision($0))" }
        }
    }

    struct Focus: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Focus a tab in its pane.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var change: ChangeFlags
        @Argument(help: "The tab's id.") var id: IDArgument

        func run() async throws {
            try await connection.perform({
                try await $0.focusTab(id: id.id, durable: change.durable, ifMatch: change.ifMatch)
            }) { "focused tab \(id.id) at \(Formatting.revision($0))" }
        }
    }
}
