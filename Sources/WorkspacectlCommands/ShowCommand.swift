import ArgumentParser
import WorkspaceAPI

/// `workspacectl show`: the whole workspace.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show the whole workspace: projects, panes, tabs, favorites, owner.",
        discussion: """
            With --at REV, the workspace as it was at that revision, read from the history the daemon keeps \
            (`workspacectl history` lists the revisions).
            """)

    @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions

    @Option(help: ArgumentHelp("Show the workspace as it was at this revision.", valueName: "revision"))
    var at: UInt64?

    func run() async throws {
        try await connection.perform({ client in
            if let at { return try await client.workspace(at: at) }
            return try await client.workspace()
        }) { Self.render($0) }
    }

    static func render(_ response: WorkspaceResponse) -> String {
        let workspace = response.workspace
        var lines = [
            "revision \(response.revision) (ETag \(response.etag))", "owner: \(Formatting.owner(workspace.owner))",
            "projects:",
        ]
        if workspace.projects.isEmpty { lines.append("  (none)") }
        for project in workspace.projects {
            lines.append(Formatting.project(project, active: project.id == workspace.activeProjectID))
        }
        lines.append("favorites:")
        if workspace.favorites.isEmpty { lines.append("  (none)") }
        lines += workspace.favorites.map { "  " + Formatting.favorite($0) }
        return lines.joined(separator: "\n")
    }
}

/// `workspacectl flush`: waits until everything accepted so far is on disk.
struct FlushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flush", abstract: "Save now; returns once everything accepted so far is on disk.")

    @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions

    func run() async throws {
        try await connection.perform({ try await $0.flush() }) { "flushed at \(Formatting.revision($0))" }
    }
}
