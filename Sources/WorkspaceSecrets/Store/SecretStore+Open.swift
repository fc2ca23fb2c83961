import FoundationEssentials
import StateStore

extension SecretStore {
    /// Opens the secret store in `location`, creating it at the first start; never fails, never resets.
    ///
    /// Under the store's lock (`.secrets.json.enc.lock`): finds the key (``ProvidedKey`` first, else the key
    /// file, created when neither the store nor `installation.json` exists), then:
    /// - neither `secrets.json.enc` nor `installation.json` exists: a new installation; the store is written
    ///   durably, then `installation.json`;
    /// - `installation.json` exists without the store: unavailable (``SecretsUnavailable/Reason/missingFile``),
    ///   no new installation id;
    /// - the store exists: it is loaded (migrated when older); a store that cannot be opened (missing or wrong
    ///   key, tampered, truncated), decoded or read, or that comes from a newer release, is left exactly as it
    ///   is and the opening is unavailable, saying why; `installation.json` is written again when it is missing
    ///   or out of date.
    ///
    /// While unavailable the lock stays held (``SecretStoreOpening/releaseLock()``).
    public static func open(
        at location: SecretsLocation, key provided: ProvidedKey, options: SecretStoreOptions
    ) -> SecretStoreOpening {
        let fileSystem = options.fileSystem
        let sealing = ReplaceableSealing()
        let file = options.stateFile(location, sealing: sealing)
        var opening = SecretStoreOpening(secretsPath: location.secretsPath, lockHolder: file)
        do {
            try file.acquireLock()
        } catch {
            return opening.disabled(.locked, "\(error) (is `workspaced secrets …` running?)")
        }
        let installationFile = InstallationFile.read(location.installationPath, fileSystem: fileSystem)
        if case .present(let contents) = installationFile { opening.installation = contents.record }
        let stored: Data?
        do {
            stored = try fileSystem.readFile(at: location.secretsPath)
        } catch {
            return opening.disabled(.readFailed, "cannot read \(location.secretsPath): \(error)")
        }
        let resolution: SecretsKeyResolver.Resolution
        do {
            resolution = try SecretsKeyResolver(location: location, fileSystem: fileSystem, writes: true).resolve(
                provided, sealedKeyID: stored.flatMap(SecretsSealing.keyID(of:)),
                storeExists: stored != nil || installationFile.exists)
        } catch {
            return opening.disabled(error.reason, error.message)
        }
        opening.notices += resolution.notices
        opening.keySource = resolution.source
        opening.keyID = resolution.key.id
        sealing.use(resolution.key)

        let loaded: LoadedState<Secrets>
        if stored == nil {
            if installationFile.exists {
                return opening.disabled(.missingFile, missingStoreMessage(location, installationFile))
            }
            do {
                loaded = try file.load()
                try file.save(loaded.model)
            } catch {
                return opening.disabled(.writeFailed, "cannot create \(location.secretsPath): \(error)")
            }
            opening.createdInstallation = true
            let record = loaded.model.installation
            opening.notices.append(
                SecretsNotice(
                    .installationCreated, .notice,
                    "new installation \(record.id.uuidString.lowercased()) (first start of \(record.firstRelease)); "
                        + "created \(location.secretsPath) sealed under key \(resolution.key.id)"))
        } else {
            do {
                loaded = try file.load()
            } catch {
                let (reason, message) = describe(error)
                return opening.disabled(reason, message)
            }
            opening.notices.append(SecretsNotice(.loaded, .info, "secret store: \(loaded.report.summary)"))
        }
        opening.loadReport = loaded.report
        opening.installation = loaded.model.installation
        if let mismatch = reconcile(
            installationFile, with: loaded.model.installation, keyID: resolution.key.id, location: location,
            fileSystem: fileSystem, firstStart: opening.createdInstallation, notices: &opening.notices)
        {
            return opening.disabled(.installationMismatch, mismatch)
        }
        let persistent = PersistentState(
            file: file, loaded: loaded, configuration: options.persistence, scheduler: options.scheduler,
            observer: options.observer)
        if loaded.report.migrated {
            // Bring the file to the current version (the pre-migration backup is kept first) without waiting for
            // a token change; the debounce applies.
            _ = try? persistent.apply { (_: inout Secrets) in () }
        }
        opening.store = SecretStore(
            state: persistent, keyID: resolution.key.id, keySource: resolution.source, now: options.now)
        return opening
    }

    /// Writes `installation.json` again when it is missing, unreadable or names another key; returns why the
    /// store is unavailable when it names another installation.
    static func reconcile(
        _ contents: InstallationFile.Contents, with record: InstallationRecord, keyID: String,
        location: SecretsLocation, fileSystem: any FileSystem, firstStart: Bool, notices: inout [SecretsNotice]
    ) -> String? {
        let why: String
        switch contents {
        case .missing:
            why = firstStart ? "a new installation" : "it was missing"
        case .unreadable(let reason):
            why = "it could not be read (\(reason))"
        case .present(let file):
            if file.id != record.id {
                return "\(location.installationPath) names installation \(file.idText), but \(location.secretsPath) "
                    + "holds installation \(record.id.uuidString.lowercased()): they come from different "
                    + "installations. Move aside the one that does not belong here (without installation.json, the "
                    + "store's installation is kept and the file is written again)"
            }
            guard file.keyId != keyID else { return nil }
            why = "it named key \(file.keyId), the store is sealed under key \(keyID)"
        }
        do {
            try InstallationFile(record: record, keyID: keyID).write(
                to: location.installationPath, fileSystem: fileSystem)
            notices.append(
                SecretsNotice(
                    .installationFileWritten, firstStart ? .info : contents == .missing ? .notice : .warning,
                    "wrote \(location.installationPath) from the secret store: \(why)"))
        } catch {
            notices.append(
                SecretsNotice(
                    .installationFileFailed, .warning,
                    "cannot write \(location.installationPath) (\(why)): \(error); it is tried again at the next start"
                ))
        }
        return nil
    }

    static func missingStoreMessage(_ location: SecretsLocation, _ contents: InstallationFile.Contents) -> String {
        let which: String
        if case .present(let file) = contents {
            which = "installation \(file.idText), first started \(file.firstStartedAt.formatted(.iso8601))"
        } else {
            which = "an installation"
        }
        return "\(location.secretsPath) is missing, but \(location.installationPath) records \(which): no new "
            + "installation is made. Restore \(SecretsSchema.fileName) from a backup, or start a new secret store "
            + "with `workspaced secrets reset --yes` (every token is lost)"
    }

    /// The reason and message for a store that did not load.
    static func describe(_ error: StateStoreError) -> (SecretsUnavailable.Reason, String) {
        let untouched = "; the file was left as it is"
        switch error {
        case .unsealFailed(let path, let reason):
            return (.cannotOpen, "\(path) cannot be opened: \(reason)\(untouched)")
        case .corrupt(let path, let reason):
            return (.corrupt, "\(path) opens but is not a readable secret store: \(reason)\(untouched)")
        case .newerVersion:
            return (.newerVersion, "\(error)")
        case .locked:
            return (.locked, "\(error)")
        default:
            return (.readFailed, "\(error)")
        }
    }
}
