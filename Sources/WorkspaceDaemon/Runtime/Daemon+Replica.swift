import FoundationEssentials
import Logging
import StateStore
import StateStoreS3
import Systemd
import WorkspaceModel

extension Daemon {
    /// Connects to the replica the configuration names; `nil` when replication is off. A missing credential is a
    /// refused configuration (exit 78) naming the key it belongs to.
    func openReplica(_ configuration: DaemonConfiguration) throws(DaemonStartError) -> ReplicaConnection? {
        guard let settings = configuration.replica else { return nil }
        do {
            return try ReplicaConnection.open(
                settings, credentials: sources.credentials, environment: sources.environment)
        } catch {
            let failure = DaemonStartError.configuration(error)
            logger.error("\(failure)")
            send { try notifier.status(failure.description) }
            throw failure
        }
    }

    /// The daemon's replication, as this state directory's installation.
    func makeReplica(
        _ configuration: DaemonConfiguration, connection: ReplicaConnection, statePath: String, hold: HistoryHold?
    ) throws(DaemonStartError) -> DaemonReplica? {
        guard let settings = configuration.replica else { return nil }
        let installation: String
        do {
            installation = try ReplicaInstallation.id(
                stateDirectory: configuration.stateDirectory, fileSystem: environment.fileSystem)
        } catch {
            throw .configuration(
                .invalidValue(
                    key: ConfigurationKey.replicaURL.name, value: settings.location.description,
                    reason: "cannot record this installation's id in \(configuration.stateDirectory)/"
                        + "\(ReplicaInstallation.fileName): \(error)"))
        }
        return DaemonReplica(
            settings: settings, connection: connection, statePath: statePath, installation: installation,
            hold: hold, logger: logger, notifier: notifier)
    }

    /// With `replica.restoreIfMissing`: when the state directory holds no state file and no journal, restores the
    /// newest state from the replica before the load (the start timeout extended meanwhile). A replica with nothing
    /// in it starts empty, as a first host does; a replica that cannot be read refuses the start (75, a restart
    /// retries), since starting empty would serve an empty workspace the operator asked to restore.
    func restoreIfMissing(
        _ file: StateFile<Workspace>, from connection: ReplicaConnection, settings: ReplicaSettings
    ) throws(DaemonStartError) {
        let fileSystem = environment.fileSystem
        guard !fileSystem.exists(file.path) else { return }
        let directory = PathText.deletingLastComponent(of: file.path)
        let name = PathText.lastComponent(of: file.path)
        let names = (try? fileSystem.contentsOfDirectory(directory)) ?? []
        guard !names.contains(where: { $0.hasPrefix(name + ".journal.") }) else { return }
        let timeout = StartTimeoutExtension(notifier: notifier, interval: environment.startTimeoutInterval)
        defer { timeout.stop() }
        send {
            try notifier.send([
                .status("restoring \(file.path) from the replica \(settings.location)"),
                .extendTimeout(microseconds: 5_000_000),
            ])
        }
        do {
            let report = try ReplicaRestore.restore(
                from: connection.target, stateFilePath: file.path, fileSystem: fileSystem, digest: .crypto)
            logger.notice(
                "restored from the replica \(settings.location): \(report)",
                metadata: DaemonEvent.replicaRestored.metadata([
                    "replica_url": "\(settings.location)", "lineage": "\(report.lineage)",
                    "revision": "\(report.revision)",
                ]))
        } catch {
            if error.replicaIsEmpty {
                logger.notice("the replica \(settings.location) holds nothing yet; starting without a state file")
                return
            }
            let failure = DaemonStartError.replica("cannot restore from the replica \(settings.location): \(error)")
            logger.error("\(failure)")
            send { try notifier.status(failure.description) }
            throw failure
        }
    }
}
