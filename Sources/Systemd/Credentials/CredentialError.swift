/// Why a credential could not be read.
public enum CredentialError: Error, Equatable, CustomStringConvertible {
    /// `CREDENTIALS_DIRECTORY` is not set: the unit passes no credentials (`LoadCredential=`/`SetCredential=`).
    case directoryUnset(name: String)
    /// The name is empty, `.`/`..` or contains a `/`: it cannot name a file in the credentials directory.
    case invalidName(name: String)
    /// The directory exists but holds no credential with that name.
    case missing(name: String, directory: String)
    /// The file exists but reading it failed.
    case unreadable(name: String, path: String, errno: Int32)

    /// A sentence an operator can act on.
    public var description: String {
        switch self {
        case .directoryUnset(let name):
            return "credential '\(name)': CREDENTIALS_DIRECTORY is not set (add LoadCredential=\(name):… to the unit)"
        case .invalidName(let name):
            return "credential '\(name)': not a valid credential name"
        case .missing(let name, let directory):
            return "credential '\(name)': no such file in \(directory)"
        case .unreadable(let name, let path, let errno):
            return "credential '\(name)': cannot read \(path) (errno \(errno))"
        }
    }
}
