import ArgumentParser
import WorkspaceDaemon

/// Makes a backup of the state file on demand.
struct Backup: SeamedCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Keep the state file as workspace.json.manual-<UTC time>.bak; safe while the daemon runs.",
        discussion: """
            The state directory is the configured one (found as the daemon finds it), or --state-directory. \
            The backup takes no lock: every save is an atomic replace, so it holds one whole save, the last one \
            (a hard link, or a durable copy where the file system cannot link). A change the running daemon \
            accepted within its save debounce may be only in its journal: stop the service first for a backup \
            with every change. When a backup already holds the same bytes, none is made and it is named. Manual \
            backups are never pruned (backupsKept counts pre-migration ones); `workspaced backups` lists them and \
            `--restore` takes them. Exit 66 when there is no state file.
            """)

    @OptionGroup var location: StateDirectoryOptions

    func run(seams: WorkspacedSeams) async throws {
        let directory = try await location.resolve(tool: "backup")
        try finish(OfflineTools.makeBackup(stateDirectory: directory, schema: seams.schema))
    }
}
