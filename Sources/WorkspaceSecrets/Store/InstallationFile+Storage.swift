import FoundationEssentials
import StateStore

extension InstallationFile {
    /// What is at a path.
    public enum Contents: Sendable, Equatable {
        /// No file.
        case missing
        /// A readable file.
        case present(InstallationFile)
        /// A file that cannot be read, decoded or migrated (or comes from a release that forbids this one), and
        /// why.
        case unreadable(String)

        /// Whether there is a file, readable or not.
        public var exists: Bool { self != .missing }
    }

    /// Reads the file at `path` without writing anything: no lock file, no sweep of temporary files, no
    /// quarantine (the caller holds the secret store's lock).
    public static func read(_ path: String, fileSystem: any FileSystem = PosixFileSystem()) -> Contents {
        let file = stateFile(path, locking: .none, fileSystem: fileSystem)
        do {
            let loaded = try file.load()
            return loaded.report.source == .noFile ? .missing : .present(loaded.model)
        } catch {
            return .unreadable("\(path) is not a readable installation file: \(error)")
        }
    }

    /// Durably writes the file at `path` (pretty-printed, mode 0644).
    ///
    /// It loads the file first, under the lock `.installation.json.lock`, which sweeps temporary files a crash
    /// left: an unreadable file is kept as `installation.json.corrupt-<UTC time>` before it is replaced; a file
    /// from a release that forbids this one is left as it is and the write fails.
    public func write(
        to path: String, fileSystem: any FileSystem = PosixFileSystem(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(StateStoreError) {
        let file = Self.stateFile(path, locking: .exclusive, fileSystem: fileSystem, now: now)
        defer { file.unlock() }
        _ = try file.load()
        try file.save(self)
    }

    /// The state file at `path`.
    static func stateFile(
        _ path: String, locking: StateFileConfiguration.Locking, fileSystem: any FileSystem,
        now: @escaping @Sendable () -> Date = { Date() }
    ) -> StateFile<InstallationFile> {
        StateFile(
            path: path, schema: InstallationFileSchema.schema,
            configuration: StateFileConfiguration(
                corruptFilePolicy: locking == .none ? .refuse : .quarantine, fileMode: 0o644, prettyPrinted: true,
                locking: locking),
            fileSystem: fileSystem, now: now)
    }
}
