import FoundationEssentials
import StateStore

/// Finds the key: the provided one (a credential) wins; otherwise the key file, created at the first start.
/// Finishes a rekey interrupted after the store was re-encrypted (`secrets.key.new` matches the store) and drops
/// one interrupted before (`secrets.key.new` does not). With `writes` off (``SecretsMaintenance/check``) it
/// changes nothing and says what the next start would do.
struct SecretsKeyResolver {
    let location: SecretsLocation
    let fileSystem: any FileSystem
    let writes: Bool

    /// The key found, where it came from, and what to log.
    struct Resolution {
        var key: SecretsKey
        var source: SecretsKeySource
        var notices: [SecretsNotice] = []
    }

    /// - Parameters:
    ///   - sealedKeyID: The key id in the store's envelope, when there is a store.
    ///   - storeExists: Whether a store or `installation.json` exists (then no key is ever created).
    func resolve(
        _ provided: ProvidedKey, sealedKeyID: String?, storeExists: Bool
    ) throws(SecretsUnavailable) -> Resolution {
        switch provided {
        case .contents(let contents, let source):
            let key: SecretsKey
            do {
                key = try SecretsKey.parse(contents, source: "\(source)")
            } catch {
                throw SecretsUnavailable(.badKey, error.description)
            }
            var resolution = Resolution(key: key, source: source)
            if fileSystem.exists(location.keyPath) {
                resolution.notices.append(
                    SecretsNotice(
                        .keyFileLeftOver, .warning,
                        "the secrets key comes from \(source); the key file \(location.keyPath) is still there. "
                            + "Once `workspaced secrets check` says the store is readable with the \(source), "
                            + "remove it: `shred -u \(location.keyPath)`"))
            }
            return resolution
        case .unreadable(let reason, let source):
            throw SecretsUnavailable(.badKey, "\(source) cannot be read: \(reason)")
        case .none:
            return try keyFile(sealedKeyID: sealedKeyID, storeExists: storeExists)
        }
    }

    private func keyFile(sealedKeyID: String?, storeExists: Bool) throws(SecretsUnavailable) -> Resolution {
        let keyBytes = try read(location.keyPath)
        let pending = try read(location.pendingKeyPath).flatMap {
            try? SecretsKey.parse(Array($0), source: location.pendingKeyPath)
        }
        var notices: [SecretsNotice] = []
        let key: SecretsKey
        if let keyBytes {
            let current: SecretsKey
            do {
                current = try SecretsKey.parse(Array(keyBytes), source: "the key file \(location.keyPath)")
            } catch {
                throw SecretsUnavailable(.badKey, error.description)
            }
            if let pending, let sealedKeyID, sealedKeyID != current.id, pending.id == sealedKeyID {
                notices.append(try finishRekey(pending))
                key = pending
            } else {
                if fileSystem.exists(location.pendingKeyPath), sealedKeyID == nil || sealedKeyID == current.id {
                    notices.append(abandonRekey())
                }
                key = current
            }
        } else if let pending, let sealedKeyID, pending.id == sealedKeyID {
            notices.append(try finishRekey(pending))
            key = pending
        } else if storeExists {
            let sealed = sealedKeyID.map { " (the store is sealed under key \($0))" } ?? ""
            throw SecretsUnavailable(
                .noKey,
                "there is a secret store but no key\(sealed): no credential secrets-key and no key file "
                    + "\(location.keyPath). Give the key it was sealed under as the credential secrets-key or as "
                    + "\(location.keyPath)")
        } else {
            key = try createKeyFile(&notices)
        }
        notices.append(keyFileWarning())
        return Resolution(key: key, source: .keyFile(path: location.keyPath), notices: notices)
    }

    /// The warning given at every start while the key is in the key file.
    func keyFileWarning() -> SecretsNotice {
        let path = location.keyPath
        return SecretsNotice(
            .keyFileInUse, .warning,
            "the secrets key is in the key file \(path), next to what it protects (and in every backup of the "
                + "state directory). Move it to an encrypted systemd credential: `systemd-creds encrypt "
                + "--name=secrets-key \(path) /etc/workspaced/secrets-key.cred`, then "
                + "`LoadCredentialEncrypted=secrets-key:/etc/workspaced/secrets-key.cred` in a drop-in "
                + "(`systemctl edit workspaced`), restart, and remove \(path) (docs/secrets.md)")
    }

    private func createKeyFile(_ notices: inout [SecretsNotice]) throws(SecretsUnavailable) -> SecretsKey {
        guard writes else {
            throw SecretsUnavailable(
                .noKey,
                "no key: no credential secrets-key and no key file \(location.keyPath) (the first start "
                    + "creates one)")
        }
        let key = SecretsKey.generate()
        do {
            try DurableWriter(fileSystem: fileSystem, mode: 0o600).write(key.fileContents, to: location.keyPath)
        } catch {
            throw SecretsUnavailable(.writeFailed, "cannot create the key file \(location.keyPath): \(error)")
        }
        notices.append(
            SecretsNotice(.keyFileCreated, .notice, "created the secrets key file \(location.keyPath) (key \(key.id))"))
        return key
    }

    private func finishRekey(_ pending: SecretsKey) throws(SecretsUnavailable) -> SecretsNotice {
        guard writes else {
            return SecretsNotice(
                .rekeyFinished, .notice,
                "an interrupted rekey: the store is sealed under \(location.pendingKeyPath) (key \(pending.id)); "
                    + "the next start moves it to \(location.keyPath)")
        }
        do {
            try fileSystem.rename(location.pendingKeyPath, to: location.keyPath)
            try fileSystem.fsyncDirectory(location.directory)
        } catch {
            throw SecretsUnavailable(
                .writeFailed, "cannot finish the interrupted rekey (\(location.pendingKeyPath)): \(error)")
        }
        return SecretsNotice(
            .rekeyFinished, .notice,
            "finished an interrupted rekey: the store is sealed under key \(pending.id), moved "
                + "\(location.pendingKeyPath) to \(location.keyPath)")
    }

    private func abandonRekey() -> SecretsNotice {
        guard writes else {
            return SecretsNotice(
                .rekeyAbandoned, .notice,
                "\(location.pendingKeyPath) is left from a rekey interrupted before the store was re-encrypted; "
                    + "the next start removes it")
        }
        try? fileSystem.unlink(location.pendingKeyPath)
        try? fileSystem.fsyncDirectory(location.directory)
        return SecretsNotice(
            .rekeyAbandoned, .notice,
            "removed \(location.pendingKeyPath), left by a rekey interrupted before the store was re-encrypted "
                + "(the store is still sealed under the key in \(location.keyPath)); run the rekey again")
    }

    private func read(_ path: String) throws(SecretsUnavailable) -> Data? {
        do {
            return try fileSystem.readFile(at: path)
        } catch {
            throw SecretsUnavailable(.readFailed, "cannot read \(path): \(error)")
        }
    }
}
