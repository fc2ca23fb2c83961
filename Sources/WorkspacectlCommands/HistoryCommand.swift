import ArgumentParser
import WorkspaceAPI
import WorkspaceClient
import WorkspaceModel

/// `workspacectl history`: the changes the daemon's history keeps, newest last.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the changes the history keeps, newest last: revision, time, operation, records, peer.",
        discussion: """
            Without --since, the newest --limit changes (100); with it, the changes after that revision. \
            --project keeps the changes that touched that project, its panes and tabs (its id, or a unique prefix \
            of it: of a project there is now, else of one the listed history names). `show --at REV` shows the workspace at a \
            revision, `restore --at REV` goes back to it, `undo` undoes the newest change.
            """)

    @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions

    @Option(help: IDArgument.help(.project)) var project: IDArgument?

    @Option(help: ArgumentHelp("List the changes after this revision.", valueName: "revision"))
    var since: UInt64?

    @Option(help: ArgumentHelp("At most this many changes, 1 to 1000 (default 100).", valueName: "n"))
    var limit: Int?

    func validate() throws {
        if let limit, !(1...1000).contains(limit) { throw ValidationError("--limit must be from 1 to 1000") }
    }

    func run() async throws {
        if let project {
            try await connection.perform(resolving: project, with: Self.resolveProject) { client, id in
                try await client.history(since: since, limit: limit, record: id)
            } human: { page, _ in
                Self.render(page, since: since)
            }
        } else {
            try await connection.perform({ try await $0.history(since: since, limit: limit) }) {
                Self.render($0, since: since)
            }
        }
    }

    /// The project `reference` names: one there is now, else one the newest 1000 changes of the history name (a
    /// deleted project's changes are still listed). The history's own refusal (none kept) leaves the first answer.
    static func resolveProject(_ reference: IDReference, client: WorkspaceClient) async throws -> WorkspaceID {
        do {
            return try await ConnectionOptions.resolve(reference, as: .project, with: client)
        } catch IDResolutionError.notFound(let reference, let kind) {
            guard let page = try? await client.history(limit: 1000) else {
                throw IDResolutionError.notFound(reference: reference, kind: kind)
            }
            var candidates: [IDPrefixResolver.Candidate] = []
            for entry in page.entries.reversed() where entry.operation.hasPrefix("project.") {
                guard let id = entry.ids.first, !candidates.contains(where: { $0.id == id }) else { continue }
                candidates.append(.init(id: id, label: "\(entry.operation) at revision \(entry.revision)"))
            }
            return try IDPrefixResolver(kind: .project, candidates: candidates).resolve(reference)
        }
    }

    /// One line per change, newest last, and what the limit left off.
    static func render(_ page: HistoryResponse, since: UInt64?) -> String {
        guard let first = page.entries.first, let last = page.entries.last else {
            return since.map { "(no changes after revision \($0))" }
                ?? "(no changes kept; the history starts at revision \(page.oldestRevision))"
        }
        let width = String(last.revision).count
        var lines = page.entries.map { entry in
            let revision = String(entry.revision)
            return [
                String(repeating: " ", count: width - revision.count) + revision,
                entry.time.map { $0.formatted(.iso8601) } ?? "-", entry.operation,
                entry.ids.isEmpty ? "-" : entry.ids.map(\.text).joined(separator: ","), entry.peer ?? "-",
            ].joined(separator: "  ")
        }
        if page.hasMore {
            lines.append(
                since == nil
                    ? "(older changes before revision \(first.revision): --since \(page.oldestRevision) lists from the "
                        + "oldest kept)"
                    : "(more after revision \(last.revision): --since \(last.revision))")
        }
        return lines.joined(separator: "\n")
    }
}
