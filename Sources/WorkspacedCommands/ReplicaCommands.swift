import ArgumentParser
import FoundationEssentials
import Glibc
import StateStore
import Systemd
import WorkspaceDaemon

/// The replica the configuration names (`replica.*`), `--from` overriding `replica.url`, connected with the
/// credentials the daemon would use.
struct ReplicaLocation: ParsableArguments {
    /// `--config` (whose `replica.*` keys give the endpoint, region and encryption) and `--state-directory`.
    @OptionGroup var directory: StateDirectoryOptions

    @Option(
        help: ArgumentHelp(
            "The replica: s3://BUCKET/PREFIX or file:///path (default: replica.url).", valueName: "url"))
    var from: String?

    /// The configuration with `--from` and `--state-directory` applied; exits 78 naming the key when refused.
    func resolve(tool: String) async throws -> (DaemonConfiguration, ReplicaSettings, ReplicaConnection) {
        var overrides: [String: ConfigurationSources.Override] = [:]
        if let from { overrides[ConfigurationKey.replicaURL.name] = .string(from) }
        if let stateDirectory = directory.stateDirectory {
            overrides[ConfigurationKey.stateDirectory.name] = .string(stateDirectory)
        }
        let sources = ConfigurationSources(
            configFile: directory.config, environment: ProcessInfo.processInfo.environment, overrides: overrides)
        do {
            let configuration = try await ConfigurationLoader.load(sources)
            guard let settings = configuration.replica else {
                throw ConfigurationError.invalidValue(
                    key: ConfigurationKey.replicaURL.name, value: "",
                    reason: "names no replica: give --from s3://BUCKET/PREFIX or file:///path, or set replica.url")
            }
            return (configuration, settings, try ReplicaConnection.open(settings))
        } catch {
            LineWriter.write("workspaced \(tool): \(error)\n", to: STDERR_FILENO)
            throw ExitCode(ConfigurationError.exitCode)
        }
    }
}

/// `workspaced restore`: the state from the replica into an empty state directory.
struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract:
            "Restore the state from the replica (the newest, a revision or a time) into an empty state directory.",
        discussion: """
            Reads the replica's manifest, the newest snapshot at or before the point and the journal after it, checks \
            every object's SHA-256, and writes workspace.json and its journal, which the next start replays. A state \
            directory that is not empty is refused unless --force, which moves what is there into replaced-<time>/. \
            Stop the daemon first (its lock is taken). Exit 0 restored, 65 a damaged or missing object (named), 75 \
            the daemon is running, 78 a refused configuration.
            """)

    @OptionGroup var location: ReplicaLocation

    @Option(help: ArgumentHelp("The revision to restore (of the replica's newest lineage).", valueName: "revision"))
    var at: UInt64?

    @Option(
        help: ArgumentHelp(
            "The time to restore: every change made at or before it (ISO 8601, 2026-11-28T10:00:00Z).",
            valueName: "time"))
    var atTime: String?

    @Flag(help: "Move the files of a state directory that is not empty aside instead of refusing.")
    var force = false

    func validate() throws {
        if at != nil, atTime != nil { throw ValidationError("give --at or --at-time, not both") }
        if let atTime, Self.parseTime(atTime) == nil {
            throw ValidationError("--at-time \(atTime) is not an ISO 8601 time (2026-11-28T10:00:00Z)")
        }
    }

    static func parseTime(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }

    func run() async throws {
        let (configuration, settings, connection) = try await location.resolve(tool: "restore")
        defer { connection.close() }
        let point: ReplicaRestorePoint =
            if let at { .revision(at) } else if let atTime { .time(Self.parseTime(atTime)!) } else { .latest }
        try finish(
            OfflineTools.replicaRestore(
                connection: connection, url: settings.location.description, at: point,
                stateDirectory: configuration.stateDirectory, force: force))
    }
}

/// `workspaced replica takeover`: the lease moved to this installation.
struct ReplicaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replica",
        abstract: "Manage the replica off the host.",
        subcommands: [TakeOver.self])

    struct TakeOver: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "takeover",
            abstract: "Move the replica's lease to this installation, after the host that held it is gone.",
            discussion: """
                Writes this state directory's installation id (replica-installation) into the replica's lease; its \
                daemon replicates from its next pass, and the installation that held the lease stops writing at its \
                next renewal. Only for a host that is gone or retired: two daemons writing one replica each see the \
                other's lineage as abandoned.
                """)

        @OptionGroup var location: ReplicaLocation

        func run() async throws {
            let (configuration, settings, connection) = try await location.resolve(tool: "replica takeover")
            defer { connection.close() }
            try finish(
                OfflineTools.replicaTakeOver(
                    connection: connection, url: settings.location.description,
                    stateDirectory: configuration.stateDirectory))
        }
    }
}
