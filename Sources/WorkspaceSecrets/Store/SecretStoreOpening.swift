import StateStore

/// What opening the secret store gave: the open store, or why there is none (token authentication is then
/// disabled), with what is known either way and what should be logged.
public struct SecretStoreOpening: Sendable {
    /// The open store; `nil` when ``unavailable`` says why not.
    public var store: SecretStore?
    /// Why there is no store; `nil` when it is open.
    public var unavailable: SecretsUnavailable?
    /// The installation: the store's record, or `installation.json`'s while the store is unavailable (`nil` when
    /// neither can be read).
    public var installation: InstallationRecord?
    /// Where the key came from, when one was found.
    public var keySource: SecretsKeySource?
    /// The id of the key in use, when one was found.
    public var keyID: String?
    /// `secrets.json.enc`.
    public var secretsPath: String
    /// Whether this start created the installation (no store and no `installation.json` existed).
    public var createdInstallation = false
    /// The load of the store, when it was read.
    public var loadReport: LoadReport?
    /// What to log, in order.
    public var notices: [SecretsNotice] = []
    /// Holds the store's lock while the store is unavailable, so the offline tools still refuse to run.
    let lockHolder: StateFile<Secrets>?

    init(secretsPath: String, lockHolder: StateFile<Secrets>?) {
        self.secretsPath = secretsPath
        self.lockHolder = lockHolder
    }

    /// No store was opened: token authentication is disabled for `reason`.
    public static func notOpened(_ reason: String = "the secret store was not opened") -> SecretStoreOpening {
        var opening = SecretStoreOpening(secretsPath: "", lockHolder: nil)
        opening.unavailable = SecretsUnavailable(.notOpened, reason)
        return opening
    }

    /// Whether token authentication works.
    public var isEnabled: Bool { store != nil }

    /// This opening, disabled for `reason`.
    func disabled(_ reason: SecretsUnavailable.Reason, _ message: String) -> SecretStoreOpening {
        var copy = self
        copy.store = nil
        copy.unavailable = SecretsUnavailable(reason, message)
        return copy
    }

    /// Releases the store's lock (the offline tools may then run); the store, if open, must be closed first.
    public func releaseLock() {
        lockHolder?.unlock()
        store?.state.file.unlock()
    }
}
