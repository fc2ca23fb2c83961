import FoundationEssentials
import StateStore

extension SecretsMaintenance {
    /// Re-encrypts the store under a new key.
    ///
    /// The current key is `provided` (a credential, or a file given with `--key`), else the key file. The new
    /// key is `newKey` (32 raw bytes or base64 text), else, with the key file, a random one; with a provided key
    /// a new key must be given (it is then the operator's to install as the credential).
    ///
    /// With the key file the order is crash-safe: the new key is written durably to `secrets.key.new`, the store
    /// is re-encrypted (a durable replace), `installation.json` is updated, and `secrets.key.new` is renamed over
    /// `secrets.key`. Interrupted before the re-encryption, the store is still under the old key and the next
    /// start drops `secrets.key.new`; after it, the next start finds the store under `secrets.key.new` and
    /// finishes the rename.
    ///
    /// - Returns: Lines saying what was done (and, with a provided key, what the operator must do next).
    public static func rekey(
        at location: SecretsLocation, key provided: ProvidedKey, newKey: (contents: [UInt8], source: String)?,
        options: SecretStoreOptions
    ) throws(SecretsMaintenanceError) -> [String] {
        let fileSystem = options.fileSystem
        let sealing = ReplaceableSealing()
        let file = options.stateFile(location, sealing: sealing)
        defer { file.unlock() }
        do {
            try file.acquireLock()
        } catch {
            throw SecretsMaintenanceError(.locked, "\(error): stop the daemon first")
        }
        let stored: Data?
        do {
            stored = try fileSystem.readFile(at: location.secretsPath)
        } catch {
            throw SecretsMaintenanceError(.unreadable, "cannot read \(location.secretsPath): \(error)")
        }
        guard let stored else {
            throw SecretsMaintenanceError(.missing, "there is no secret store at \(location.secretsPath) to rekey")
        }
        let current: SecretsKeyResolver.Resolution
        do {
            current = try SecretsKeyResolver(location: location, fileSystem: fileSystem, writes: true)
                .resolve(provided, sealedKeyID: SecretsSealing.keyID(of: stored), storeExists: true)
        } catch {
            throw SecretsMaintenanceError(.unreadable, error.message)
        }
        var lines = current.notices.filter { $0.kind != .keyFileInUse }.map(\.message)
        sealing.use(current.key)
        let loaded: LoadedState<Secrets>
        do {
            loaded = try file.load()
        } catch {
            throw SecretsMaintenanceError(.unreadable, SecretStore.describe(error).1)
        }
        let usesKeyFile: Bool
        if case .keyFile = current.source { usesKeyFile = true } else { usesKeyFile = false }
        let replacement = try newKeyToUse(newKey, usesKeyFile: usesKeyFile)
        guard replacement.id != current.key.id else {
            throw SecretsMaintenanceError(.usage, "the new key is the key in use (\(current.key.id)); give another")
        }
        if usesKeyFile {
            do {
                try DurableWriter(fileSystem: fileSystem, mode: 0o600).write(
                    replacement.fileContents, to: location.pendingKeyPath)
            } catch {
                throw SecretsMaintenanceError(
                    .writeFailed, "cannot write \(location.pendingKeyPath): \(error); nothing was changed")
            }
        }
        sealing.use(replacement)
        do {
            try file.save(loaded.model)
        } catch {
            let left = usesKeyFile ? " (the next start removes \(location.pendingKeyPath))" : ""
            throw SecretsMaintenanceError(
                .writeFailed,
                "cannot re-encrypt \(location.secretsPath): \(error); it is still sealed under key "
                    + "\(current.key.id)\(left)")
        }
        lines.append("re-encrypted \(location.secretsPath) under key \(replacement.id) (was \(current.key.id))")
        var notices: [SecretsNotice] = []
        _ = SecretStore.reconcile(
            InstallationFile.read(location.installationPath, fileSystem: fileSystem), with: loaded.model.installation,
            keyID: replacement.id, location: location, fileSystem: fileSystem, firstStart: false, notices: &notices)
        lines += notices.map(\.message)
        if usesKeyFile {
            do {
                try fileSystem.rename(location.pendingKeyPath, to: location.keyPath)
                try fileSystem.fsyncDirectory(location.directory)
            } catch {
                throw SecretsMaintenanceError(
                    .writeFailed,
                    "the store is sealed under the new key, but moving \(location.pendingKeyPath) to "
                        + "\(location.keyPath) failed: \(error); the next start finishes it")
            }
            lines.append("replaced the key file \(location.keyPath) (the old key is gone)")
        } else {
            lines.append(
                "the store now needs the new key (\(replacement.id)) as the credential secrets-key: "
                    + "`systemd-creds encrypt --name=secrets-key \(newKey?.source ?? "NEW-KEY-FILE") "
                    + "/etc/workspaced/secrets-key.cred`, then restart workspaced; until then token authentication "
                    + "is disabled (wrong key)")
        }
        let backups = (try? file.backups().map(\.name)) ?? []
        if !backups.isEmpty {
            lines.append(
                "the backups \(backups.joined(separator: ", ")) stay sealed under the old key (\(current.key.id))")
        }
        return lines
    }

    private static func newKeyToUse(
        _ newKey: (contents: [UInt8], source: String)?, usesKeyFile: Bool
    ) throws(SecretsMaintenanceError) -> SecretsKey {
        guard let newKey else {
            guard usesKeyFile else {
                throw SecretsMaintenanceError(
                    .usage,
                    "the key comes from a credential: give the new key with --new-key FILE (make one with "
                        + "`head -c 32 /dev/urandom | base64 > FILE`), then install it as the credential")
            }
            return SecretsKey.generate()
        }
        do {
            return try SecretsKey.parse(newKey.contents, source: newKey.source)
        } catch {
            throw SecretsMaintenanceError(.usage, error.description)
        }
    }
}
