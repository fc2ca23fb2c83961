/// Where the secrets key came from.
public enum SecretsKeySource: Sendable, Equatable, CustomStringConvertible {
    /// A systemd credential (`LoadCredentialEncrypted=`/`LoadCredential=`), by name.
    case credential(name: String)
    /// The key file in the state directory.
    case keyFile(path: String)
    /// A file an operator named on the command line (offline tools' `--key`).
    case file(path: String)

    /// `credential`, `key-file` or `file`: the value of `keySource` in `/v1/status`.
    public var kind: String {
        switch self {
        case .credential: return "credential"
        case .keyFile: return "key-file"
        case .file: return "file"
        }
    }

    /// `credential secrets-key`, `key file /var/lib/workspaced/secrets.key`, `file PATH`.
    public var description: String {
        switch self {
        case .credential(let name): return "credential \(name)"
        case .keyFile(let path): return "key file \(path)"
        case .file(let path): return "file \(path)"
        }
    }
}

/// A key given from outside the state directory: the systemd credential (or a file for the offline tools), read
/// by the caller so that this library needs nothing of systemd.
public enum ProvidedKey: Sendable {
    /// None: the key file in the state directory is used (created at the first start).
    case none
    /// The contents of the credential or file (32 raw bytes or base64 text).
    case contents([UInt8], source: SecretsKeySource)
    /// A credential or file that exists but could not be read.
    case unreadable(reason: String, source: SecretsKeySource)
}
