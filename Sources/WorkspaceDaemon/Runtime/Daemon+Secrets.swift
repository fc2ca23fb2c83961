import Logging
import StateStore
import WorkspaceAPI
import WorkspaceSecrets

extension Daemon {
    /// Starts opening the secret store next to the state file, with the key from the credential `secrets-key` or
    /// the key file: beside the workspace's load when the store is installed (``PendingSecretStore``); the first
    /// start creates the installation durably after the load.
    ///
    /// Never fails the start: a store that cannot be used leaves token authentication disabled, says why in the
    /// journal (``logSecrets(_:location:)``, ``DaemonEvent/secretsDisabled``) and in `/v1/status`, and the files are
    /// left exactly as they are.
    func beginOpeningSecretStore(_ configuration: DaemonConfiguration) -> PendingSecretStore {
        let location = SecretsLocation(directory: configuration.stateDirectory)
        let options = SecretStoreOptions(
            release: ControlAPI.daemonVersion,
            persistence: PersistenceConfiguration(
                debounce: configuration.saveDebounce, maximumDelay: configuration.saveMaximumDelay),
            scheduler: environment.scheduler,
            observer: { [logger] event in Self.log(event, path: location.secretsPath, logger: logger) },
            fileSystem: environment.fileSystem, backupsKept: configuration.backupsKept)
        let installed =
            environment.fileSystem.exists(location.installationPath)
            && environment.fileSystem.exists(location.secretsPath)
        let credentials = sources.credentials
        return PendingSecretStore(installed: installed) {
            SecretStore.open(at: location, key: SecretsCredential.provided(credentials), options: options)
        }
    }

    /// One entry per notice (the key-file warning and the new installation with their MESSAGE_IDs), then either
    /// the open store or why it is unavailable.
    func logSecrets(_ opening: SecretStoreOpening, location: SecretsLocation) {
        for notice in opening.notices {
            switch notice.kind {
            case .keyFileInUse:
                logger.warning(
                    "\(notice.message)",
                    metadata: DaemonEvent.secretsKeyFile.metadata([
                        "key_path": "\(location.keyPath)", "key_id": "\(opening.keyID ?? "none")",
                    ]))
            case .installationCreated:
                logger.notice(
                    "\(notice.message)",
                    metadata: DaemonEvent.installationCreated.metadata([
                        "installation_id": "\(opening.installation?.id.uuidString.lowercased() ?? "none")",
                        "secrets_path": "\(location.secretsPath)", "key_id": "\(opening.keyID ?? "none")",
                        "key_source": "\(opening.keySource?.kind ?? "none")",
                    ]))
            default:
                let level: Logger.Level =
                    switch notice.level {
                    case .info: .info
                    case .notice: .notice
                    case .warning: .warning
                    }
                logger.log(level: level, "\(notice.message)", metadata: ["secrets_path": "\(location.secretsPath)"])
            }
        }
        if let store = opening.store {
            let record = store.installation
            logger.info(
                """
                secret store open: installation \(record.id.uuidString.lowercased()), key \(store.keyID) from the \
                \(store.keySource), token authentication enabled
                """,
                metadata: [
                    "secrets_path": "\(location.secretsPath)",
                    "installation_id": "\(record.id.uuidString.lowercased())",
                    "key_id": "\(store.keyID)", "key_source": "\(store.keySource.kind)",
                ])
        } else if let unavailable = opening.unavailable {
            logger.error(
                "token authentication is disabled: \(unavailable.message); the workspace is served as usual",
                metadata: DaemonEvent.secretsDisabled.metadata([
                    "secrets_path": "\(location.secretsPath)", "reason": "\(unavailable.message)",
                    "reason_code": "\(unavailable.reason.rawValue)",
                    "key_source": "\(opening.keySource?.kind ?? "none")",
                ]))
        }
    }
}

extension RunningDaemon {
    /// Closes the secret store on stop: refuses token changes and saves what is not on disk yet (`lastUsedAt`
    /// updates), synchronously, like the workspace state.
    /// - Returns: ``WorkspaceAPI/ExitStatus/ioError`` when that save failed.
    func closeSecretStore() -> ExitStatus {
        guard let store = api.secrets.store else { return .success }
        do {
            try store.close()
        } catch {
            let status = store.state.status
            logger.error(
                "flush of the secret store on stop failed: \(error)",
                metadata: DaemonEvent.flushFailed.metadata([
                    "error": "\(error)", "secrets_path": "\(store.state.file.path)",
                    "revision": "\(status.revision)", "durable_revision": "\(status.durableRevision)",
                ]))
            return .ioError
        }
        return .success
    }
}
