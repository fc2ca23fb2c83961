#if canImport(Glibc)
import Glibc
#endif

/// Reads the credentials systemd passes in `$CREDENTIALS_DIRECTORY` (`LoadCredential=`, `SetCredential=`).
public struct Credentials: Sendable {
    /// The directory, or `nil` when the unit passes no credentials.
    public let directory: String?

    /// Reads the directory from an environment (``ServiceEnvironment/process()`` by default).
    public init(environment: ServiceEnvironment = .process()) {
        self.directory = environment.credentialsDirectory
    }

    /// The raw bytes of the credential `name`.
    public func bytes(_ name: String) throws(CredentialError) -> [UInt8] {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/") else {
            throw .invalidName(name: name)
        }
        guard let directory else { throw .directoryUnset(name: name) }
        let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let error = errno
            if error == ENOENT { throw .missing(name: name, directory: directory) }
            throw .unreadable(name: name, path: path, errno: error)
        }
        defer { close(fd) }
        do {
            return try readToEnd(fd)
        } catch {
            throw .unreadable(name: name, path: path, errno: error.errno)
        }
    }

    /// The credential `name` as UTF-8 text, without trailing newlines.
    public func string(_ name: String) throws(CredentialError) -> String {
        var text = String(decoding: try bytes(name), as: UTF8.self)
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
