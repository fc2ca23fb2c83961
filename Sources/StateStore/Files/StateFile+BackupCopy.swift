import FoundationEssentials
import Glibc

extension StateFile {
    /// The `link` errors that mean the file system cannot give the file another name (no hard links, another
    /// device, too many links); a backup is then a copy.
    static var linkUnsupportedErrors: [Int32] { [EPERM, EXDEV, ENOTSUP, EMLINK] }

    /// Keeps the state file's current bytes at `destination` without replacing anything: a hard link, or, where
    /// the file system cannot link it (``linkUnsupportedErrors``), a durable copy.
    ///
    /// - Returns: `false` when `destination` already exists.
    func keepCopy(at destination: String) throws(StateStoreError) -> Bool {
        do {
            try fileSystem.link(path, to: destination)
            return true
        } catch {
            if error.errno == EEXIST { return false }
            guard Self.linkUnsupportedErrors.contains(error.errno) else { throw .backupFailed(error) }
            return try copyDurably(to: destination, becauseOf: error)
        }
    }

    /// Writes the state file's bytes to `destination` with the durable replace (temporary file, fsync, rename,
    /// directory fsync); the temporary file has the state file's own prefix, so a load sweeps a leftover one.
    private func copyDurably(
        to destination: String, becauseOf linkError: FileSystemError
    ) throws(StateStoreError)
        -> Bool
    {
        let bytes: Data
        do throws(FileSystemError) {
            if try fileSystem.attributes(of: destination) != nil { return false }
            guard let data = try fileSystem.readFile(at: path) else {
                throw FileSystemError(operation: "read", path: path, errno: ENOENT)
            }
            bytes = data
        } catch {
            throw .backupFailed(error)
        }
        do {
            try writer.write(bytes, to: destination, temporaryPrefix: DurableWriter.temporaryPrefix(for: path))
        } catch {
            throw .backupCopyFailed(linkError: linkError, copy: error)
        }
        return true
    }
}
