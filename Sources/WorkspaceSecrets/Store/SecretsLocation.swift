/// The secret store's files in a state directory.
public struct SecretsLocation: Sendable, Equatable {
    /// The state directory (`/var/lib/workspaced`).
    public var directory: String

    /// The files in `directory`.
    public init(directory: String) {
        self.directory = directory
    }

    /// `secrets.json.enc`: the encrypted store.
    public var secretsPath: String { directory + "/" + SecretsSchema.fileName }
    /// `installation.json`: the plaintext copy of the installation record and the key id.
    public var installationPath: String { directory + "/" + InstallationFile.fileName }
    /// `secrets.key`: the key file used when no credential is given.
    public var keyPath: String { directory + "/secrets.key" }
    /// `secrets.key.new`: the new key while a rekey is under way.
    public var pendingKeyPath: String { directory + "/secrets.key.new" }
    /// The prefix of stores moved aside by a reset: `secrets.json.enc.reset-`.
    public var resetPrefix: String { SecretsSchema.fileName + ".reset-" }
}
