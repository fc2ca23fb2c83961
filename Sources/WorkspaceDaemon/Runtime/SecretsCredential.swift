import FoundationEssentials
import Systemd
import WorkspaceSecrets

/// Where the daemon and its offline tools find the secrets key outside the state directory: the systemd
/// credential `secrets-key` (`LoadCredentialEncrypted=secrets-key:…` or `LoadCredential=`), or a file an
/// operator names.
package enum SecretsCredential {
    /// The credential's name.
    package static let name = "secrets-key"

    /// The credential's contents; ``WorkspaceSecrets/ProvidedKey/none`` when the unit passes no such credential
    /// (the key file is used then).
    package static func provided(_ credentials: Credentials = Credentials()) -> ProvidedKey {
        let source = SecretsKeySource.credential(name: name)
        do {
            return .contents(try credentials.bytes(name), source: source)
        } catch {
            switch error {
            case .directoryUnset, .missing: return .none
            case .invalidName, .unreadable: return .unreadable(reason: "\(error)", source: source)
            }
        }
    }

    /// The key in the file at `path` (an offline tool's `--key`).
    package static func file(_ path: String) -> ProvidedKey {
        let source = SecretsKeySource.file(path: path)
        guard let contents = FileManager.default.contents(atPath: path) else {
            return .unreadable(reason: "no such file, or not readable", source: source)
        }
        return .contents(Array(contents), source: source)
    }
}
