import ArgumentParser
import WorkspaceAPI
import WorkspaceClient
import WorkspaceModel

/// `workspacectl restore --at REV [--project ID]`: go back to a past state, as a new change.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Go back to the workspace, or one project, as it was at a revision (a new change).",
        discussion: """
            Makes a new revision whose workspace is the one at --at (from the history the daemon keeps; \
            `workspacectl history` lists the revisions). With --project, only that project with its panes and \
            tabs goes back, undeleted where it was if it was deleted since; its id may be a unique prefix of a \
            project of that revision. Nothing is lost: the revisions after --at stay in the history.
            """)

    @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions
    @OptionGroup var change: ChangeFlags

    @Option(help: ArgumentHelp("The revision to go back to.", valueName: "revision")) var at: UInt64

    @Option(help: IDArgument.help(.project)) var project: IDArgument?

    func run() async throws {
        guard let project else {
            try await connection.perform({
                try await $0.restore(at: at, durable: change.durable, ifMatch: change.ifMatch)
            }) { "restored the workspace of revision \(at) at \(Formatting.revision($0))" }
            return
        }
        try await connection.perform(resolving: project) { reference, client in
            try await ConnectionOptions.resolve(reference, as: .project, with: client, at: at)
        } _: { client, id in
            try await client.restoreProject(id: id, at: at, durable: change.durable, ifMatch: change.ifMatch)
        } human: { restored, id in
            let name = restored.value.map { " (\($0.name))" } ?? ""
            return "restored project \(id)\(name) as at revision \(at) at \(Formatting.revision(restored))"
        }
    }
}

/// `workspacectl undo`: restore the revision before the newest change.
struct UndoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Undo the newest change: restore the revision before it (a new change).",
        discussion: """
            Reads the newest change of the history and restores the workspace of the revision before it, only \
            while the workspace is still the state that change made (If-Match): a change made in between is \
            refused (exit 1), never undone blindly. Undoing an undo redoes the change.
            """)

    @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions

    @Flag(help: "Return only once the change is on disk (fsynced); the answer names the durable revision.")
    var durable = false

    func run() async throws {
        let client = connection.client()
        let output = connection.output
        let newest: HistoryEntryResponse
        let current: WorkspaceETag
        do {
            let lineage = try await client.status().lineage
            let page = try await client.history(limit: 1)
            guard let entry = page.entries.last, entry.revision > 0, let lineage else {
                Output.standardError("workspacectl: nothing to undo: the history holds no change")
                throw ExitCode(.refused)
            }
            newest = entry
            current = WorkspaceETag(lineage: lineage, revision: page.currentRevision)
        } catch let error as WorkspaceClientError {
            throw output.fail(error)
        }
        let what = ([newest.operation] + newest.ids.prefix(1).map(\.text)).joined(separator: " ")
        try await connection.perform({
            try await $0.restore(at: newest.revision - 1, durable: durable, ifMatch: current)
        }) {
            "undid revision \(newest.revision) (\(what)) by restoring revision \(newest.revision - 1): now at "
                + Formatting.revision($0)
        }
    }
}
