import FoundationEssentials
import StateStore

/// The id this state directory's daemon holds a replica's lease with: `replica-installation` in the state
/// directory, a random UUID written durably at the first start with replication. A host restored from the replica
/// has another directory and so another id: it serves, but writes to the replica only after
/// `workspaced replica takeover`.
package enum ReplicaInstallation {
    /// The file's name in the state directory.
    package static let fileName = "replica-installation"

    /// The id in `stateDirectory`, created when missing.
    ///
    /// - Throws: the file system's error when it can be neither read nor written.
    package static func id(
        stateDirectory: String, fileSystem: any FileSystem = PosixFileSystem()
    ) throws -> String {
        let path = stateDirectory + "/" + fileName
        if let bytes = try fileSystem.readFile(at: path) {
            let text = String(decoding: bytes, as: UTF8.self).trimmingWhiteSpace()
            if UUID(uuidString: text) != nil { return text.lowercased() }
        }
        let id = UUID().uuidString.lowercased()
        try DurableWriter(fileSystem: fileSystem, mode: 0o644).write(Data((id + "\n").utf8), to: path)
        return id
    }
}
