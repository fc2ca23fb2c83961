import ArgumentParser
import FoundationEssentials
import Glibc
import Systemd
import WorkspaceDaemon

/// Validates the configuration without starting.
struct CheckConfig: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate the configuration and print it; exit 78 when invalid.",
        discussion: """
            Strict: an unknown key, which the daemon only warns about (it may come from a newer release), is \
            refused here too (exit 78, naming the closest known key), so CI catches typos. --lenient checks as the \
            daemon does and lists the keys it would ignore.
            """)

    @OptionGroup var options: ConfigOptions

    @Flag(help: "Warn about unknown keys as the daemon does instead of refusing them.")
    var lenient = false

    func run() async throws {
        do {
            let resolved = try await ConfigurationLoader.load(options.sources(), strict: !lenient)
            for ignored in resolved.ignoredKeys { print("warning: \(ignored)") }
            print("state directory:    \(resolved.stateDirectory)")
            print("control socket:     \(resolved.controlSocketPath)")
            print("save debounce:      \(resolved.saveDebounce)")
            print("save maximum delay: \(resolved.saveMaximumDelay)")
            print("corrupt file:       \(resolved.corruptFilePolicy.rawValue)")
            print("corrupt fallback:   \(resolved.corruptFileFallback.rawValue)")
            print("backups kept:       \(resolved.backupsKept)")
            print(
                "history:            "
                    + (resolved.history.isEnabled
                        ? "\(resolved.history.keepSeconds) s, \(resolved.history.maximumByteCount) bytes"
                        : "off"))
            print("crashed load limit: \(resolved.crashedLoadLimit)")
            print("legacy state file:  \(resolved.legacyStatePath ?? "(import off)")")
            print("log level:          \(resolved.logLevel)")
            print("API body limit:     \(resolved.apiMaximumBodyBytes) bytes")
        } catch {
            LineWriter.write("workspaced: \(error)\n", to: STDERR_FILENO)
            throw ExitCode(ConfigurationError.exitCode)
        }
    }
}

/// Inspects a state file.
struct Check: SeamedCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Report what loading the state file would do, and what a salvage would drop; exit 0 loadable as it "
            + "is, 65 not loadable as it is (salvageable or corrupt), 75 newer than this release.",
        discussion: """
            The state file is workspace.json in the configured state directory (found as the daemon finds it), \
            or in --state-directory; --state FILE inspects any other file (a quarantined or legacy file, a backup).
            """)

    @OptionGroup var location: StateDirectoryOptions

    @OptionGroup var file: StateFileOption

    @Flag(help: "Print the report as JSON (on standard output, whatever the exit status).")
    var json = false

    func validate() throws { try file.validate(against: location) }

    func run(seams: WorkspacedSeams) async throws {
        let path = try await file.statePath(location, tool: "check")
        var outcome = OfflineTools.check(statePath: path, json: json, schema: seams.schema)
        guard json else {
            // The replica the configuration names, read-only: who holds its lease and how far it reaches.
            let sources = ConfigurationSources(
                configFile: location.config, environment: ProcessInfo.processInfo.environment)
            if let configuration = try? await ConfigurationLoader.load(sources), let settings = configuration.replica {
                outcome.text += "\n" + OfflineTools.replicaSummary(settings)
            }
            return try finish(outcome)
        }
        print(outcome.text)
        if outcome.status != 0 { throw ExitCode(outcome.status) }
    }
}

/// Reads every file a restore would start from and says which are whole.
struct Verify: SeamedCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Read the state file, its journal, every backup and every history file, and name each one that is "
            + "damaged; exit 0 when all are whole, 65 when any is not.",
        discussion: """
            The state directory is the configured one (found as the daemon finds it), or --state-directory. The \
            state file is loaded and its journal replayed in memory, as a start would; every backup (.bak) is \
            loaded and migrated in memory; every history file is checked against the SHA-256 its manifest \
            records, and the changes from the oldest snapshot on are decoded. Nothing is written or locked, so \
            it runs beside a running daemon. With replica.url configured, the replica's newest state is restored \
            into a temporary directory (every object's SHA-256 checked), loaded and removed. One line a file: ok, \
            or DAMAGED with the reason.
            """)

    @OptionGroup var location: StateDirectoryOptions

    @Flag(help: "Leave the configured replica out.")
    var noReplica = false

    func run(seams: WorkspacedSeams) async throws {
        let directory = try await location.resolve(tool: "verify", earlierFlag: nil)
        var replica: (connection: ReplicaConnection, url: String)?
        if !noReplica {
            let sources = ConfigurationSources(
                configFile: location.config, environment: ProcessInfo.processInfo.environment)
            if let configuration = try? await ConfigurationLoader.load(sources), let settings = configuration.replica {
                do {
                    replica = (try ReplicaConnection.open(settings), settings.location.description)
                } catch {
                    LineWriter.write("workspaced verify: \(error)\n", to: STDERR_FILENO)
                    throw ExitCode(ConfigurationError.exitCode)
                }
            }
        }
        defer { replica?.connection.close() }
        try finish(OfflineTools.verify(stateDirectory: directory, schema: seams.schema, replica: replica))
    }
}

/// Migrates a state file offline.
struct Migrate: SeamedCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate the state file to the current version in place, keeping the pre-migration backup; "
            + "with --to N, write it down to version N for an older release.",
        discussion: """
            The state file is workspace.json in the configured state directory (found as the daemon finds it), \
            or in --state-directory, or --state FILE. Stop the daemon first: the file is locked while it runs \
            (exit 73). --to N writes the state as version N through the reverse migration steps, keeping the \
            current file as workspace.json.v<version>.bak first; fields version N cannot hold are kept in its \
            unknown fields (the older release keeps them, and the next upgrade takes them back), and each one is \
            named. `workspaced check` prints the lowest version reachable; a version below it exits 64 and \
            changes nothing. --for-release RELEASE looks up the schema version RELEASE reads in the release table \
            built into this binary and writes the state down to it (nothing to do when it reads this one's); with \
            --needed it only says whether a downgrade must stop the service and write it (exit 0), need not (1) \
            or cannot (64). The Debian package's prerm runs both when an older package replaces this one. Run as root on a state \
            directory that belongs to the service's user, the files written are given to that user.
            """)

    @OptionGroup var location: StateDirectoryOptions

    @OptionGroup var file: StateFileOption

    @Flag(help: "Print the JSON that would be written (with --to, what would move, on stderr); write nothing.")
    var dryRun = false

    @Option(help: ArgumentHelp("Write the state as this older schema version.", valueName: "version"))
    var to: Int?

    @Option(
        help: ArgumentHelp(
            "Write the state for this older release: down to the schema version it reads (from the release table).",
            valueName: "release"))
    var forRelease: String?

    @Flag(
        help: ArgumentHelp(
            "With --for-release: only say whether a downgrade to that release must stop the service and write "
                + "the state down (exit 0: it reads an older schema), need not (1) or cannot (64); write nothing."))
    var needed = false

    func validate() throws {
        try file.validate(against: location)
        if to != nil && forRelease != nil { throw ValidationError("give --to or --for-release, not both") }
        if needed && (forRelease == nil || dryRun) { throw ValidationError("--needed goes with --for-release alone") }
    }

    /// `--to` names a version of the caller's schema.
    func validate(seams: WorkspacedSeams) throws {
        let current = seams.schema.currentVersion
        if let to, !(1...current).contains(to) {
            throw ValidationError("--to must be a schema version from 1 to \(current)")
        }
    }

    func run(seams: WorkspacedSeams) async throws {
        let path = try await file.statePath(location, tool: "migrate")
        if let forRelease, needed {
            try finish(OfflineTools.writeDownNeeded(statePath: path, forRelease: forRelease, schema: seams.schema))
        } else if let forRelease {
            try finish(
                OfflineTools.migrate(
                    statePath: path, forRelease: forRelease, dryRun: dryRun, schema: seams.schema))
        } else {
            try finish(OfflineTools.migrate(statePath: path, dryRun: dryRun, to: to, schema: seams.schema))
        }
    }
}

/// `--state FILE`: a state file named directly, instead of `workspace.json` in the state directory.
struct StateFileOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A state file to use instead of workspace.json in the state directory.", valueName: "file"),
        completion: .file())
    var state: String?

    /// Refuses `--state` with `--state-directory` or `--config`: they name the file two ways.
    func validate(against location: StateDirectoryOptions) throws {
        if state != nil && location.isGiven {
            throw ValidationError("give --state FILE, or --state-directory/--config, not both")
        }
    }

    /// `--state`, else `workspace.json` in the state directory `location` names.
    func statePath(_ location: StateDirectoryOptions, tool: String) async throws -> String {
        if let state { return state }
        return OfflineTools.statePath(inStateDirectory: try await location.resolve(tool: tool))
    }
}

/// Lists or restores backups.
struct Backups: SeamedCommand {
    static let configuration = CommandConfiguration(
        commandName: "backups",
        abstract: "List the backups and set-aside files in the state directory, or restore one (with the daemon "
            + "stopped).",
        discussion: """
            The state directory is the configured one (found as the daemon finds it), or --state-directory. \
            The list holds every file the daemon or its tools kept there, newest first, with its kind: \
            pre-migration (workspace.json.v<N>.bak), before-restore, manual (workspaced backup), corrupt \
            (workspace.json.corrupt-<time>: a quarantined file or a salvaged file's original) and crashed-load \
            (the file the crash-loop guard set aside last). --json prints {"stateDirectory", "stateFile", \
            "backups": [{"name", "path", "kind", "version", "size", "modifiedAt"}]} (docs/operations.md). \
            --restore NAME takes any of them: it takes the state lock (exit 73 while the daemon runs), keeps the \
            current file as a before-restore backup, writes NAME as workspace.json and says what it holds; the \
            next start continues from it without reporting an unclean stop. A file that does not load as it is \
            is refused (exit 65) and nothing changes; with --salvage, what a salvage keeps of it is restored.
            """)

    @OptionGroup var location: StateDirectoryOptions

    /// The flag's earlier name, still accepted.
    @Option(name: .customLong("state-dir"), help: .hidden)
    var stateDir: String?

    @Option(help: ArgumentHelp("The backup to restore, as listed.", valueName: "name"))
    var restore: String?

    @Flag(help: "With --restore: restore what a salvage keeps of a file that does not load as it is.")
    var salvage = false

    @Flag(help: "Print the list as JSON (an empty list when there are none).")
    var json = false

    func validate() throws {
        if stateDir != nil && location.stateDirectory != nil {
            throw ValidationError("give --state-directory once (--state-dir is its earlier name)")
        }
        if json && restore != nil { throw ValidationError("--json lists the backups; it does not go with --restore") }
        if salvage && restore == nil { throw ValidationError("--salvage goes with --restore NAME") }
    }

    func run(seams: WorkspacedSeams) async throws {
        let directory = try await location.resolve(tool: "backups", earlierFlag: stateDir)
        if let restore {
            try finish(
                OfflineTools.restoreBackup(
                    named: restore, stateDirectory: directory, salvaging: salvage, schema: seams.schema))
        } else {
            try finish(
                OfflineTools.listBackups(
                    stateDirectory: directory, json: json, schema: seams.schema))
        }
    }
}

/// Prints an outcome (to stderr when it failed) and exits with its status.
func finish(_ outcome: OfflineTools.Outcome) throws {
    if !outcome.diagnostics.isEmpty {
        LineWriter.write(outcome.diagnostics + "\n", to: STDERR_FILENO)
    }
    if outcome.status == 0 {
        print(outcome.text)
    } else {
        LineWriter.write(outcome.text + "\n", to: STDERR_FILENO)
        throw ExitCode(outcome.status)
    }
}
