import FoundationEssentials
import StateStore
import WorkspaceAPI
import WorkspaceSecrets

extension OfflineTools {
    /// `workspaced secrets check`: 0 when the store is readable, 65 (`EX_DATAERR`) when it is not (saying why),
    /// 66 when there is none yet, 73 while the daemon holds its lock.
    ///
    /// - Parameter keyFile: The current key's file (`--key`); `nil` for the credential `secrets-key` when
    ///   `$CREDENTIALS_DIRECTORY` has it, else the key file in the state directory.
    package static func secretsCheck(stateDirectory directory: String, keyFile: String?) -> Outcome {
        let report = SecretsMaintenance.check(
            at: SecretsLocation(directory: directory), key: currentKey(keyFile), options: secretsOptions())
        let status: ExitStatus
        switch report.verdict {
        case .readable: status = .success
        case .unreadable: status = .dataError
        case .nothingThere: status = .noInput
        case .locked: status = .cannotCreate
        }
        return Outcome(text: report.lines.joined(separator: "\n"), status: status.rawValue)
    }

    /// `workspaced secrets rekey`: re-encrypts the store under a new key (from `newKeyPath`, else generated for
    /// the key file), crash-safely. 0 done, 65 unreadable, 66 no store, 64 a new key is needed, 73 locked, 74 a
    /// write failed.
    ///
    /// Run as root on a state directory that belongs to another user (the service's dynamic user), it gives the
    /// files it wrote to that user, as `secrets reset` does.
    package static func secretsRekey(
        stateDirectory directory: String, keyFile: String?, newKeyPath: String?
    ) -> Outcome {
        var newKey: (contents: [UInt8], source: String)?
        if let newKeyPath {
            guard let contents = FileManager.default.contents(atPath: newKeyPath) else {
                return Outcome(text: "cannot read the new key \(newKeyPath)", status: ExitStatus.noInput.rawValue)
            }
            newKey = (Array(contents), newKeyPath)
        }
        do {
            let lines = try SecretsMaintenance.rekey(
                at: SecretsLocation(directory: directory), key: currentKey(keyFile), newKey: newKey,
                options: secretsOptions())
            let handed = StateDirectoryOwner.handBack(directory)
            return Outcome(text: (lines + handed).joined(separator: "\n"), status: ExitStatus.success.rawValue)
        } catch {
            return secretsFailure(error)
        }
    }

    /// `workspaced secrets reset --yes`: moves the store aside (`secrets.json.enc.reset-<timestamp>`) and removes
    /// `installation.json`; without `confirmed` it refuses (64) and changes nothing.
    package static func secretsReset(stateDirectory directory: String, confirmed: Bool) -> Outcome {
        guard confirmed else {
            return Outcome(
                text: "refusing without --yes: a reset drops every API token and the next start makes a new "
                    + "installation id (the old store is kept aside as secrets.json.enc.reset-<timestamp>)",
                status: ExitStatus.usage.rawValue)
        }
        do {
            let lines = try SecretsMaintenance.reset(
                at: SecretsLocation(directory: directory), options: secretsOptions())
            let handed = StateDirectoryOwner.handBack(directory)
            return Outcome(text: (lines + handed).joined(separator: "\n"), status: ExitStatus.success.rawValue)
        } catch {
            return secretsFailure(error)
        }
    }

    private static func currentKey(_ keyFile: String?) -> ProvidedKey {
        keyFile.map(SecretsCredential.file) ?? SecretsCredential.provided()
    }

    private static func secretsOptions() -> SecretStoreOptions {
        SecretStoreOptions(release: ControlAPI.daemonVersion)
    }

    private static func secretsFailure(_ error: SecretsMaintenanceError) -> Outcome {
        let status: ExitStatus
        switch error.reason {
        case .locked: status = .cannotCreate
        case .missing: status = .noInput
        case .unreadable: status = .dataError
        case .usage: status = .usage
        case .writeFailed: status = .ioError
        }
        return Outcome(text: error.message, status: status.rawValue)
    }
}
