import FoundationEssentials
import Glibc

/// A replica in a directory: a volume mounted from elsewhere (NFS, a second disk), or the tests' target.
///
/// Each object is a file at its name's path under ``directory``, written by ``DurableWriter`` as the state file is
/// (a temporary file, fsynced, then linked or renamed into place, then the directory fsynced), so an object is
/// whole or absent after a crash. ``create(_:bytes:)`` uses ``DurableWriter/create(_:at:)``, whose link fails when
/// the name exists: two writers never overwrite each other. ``replace(_:bytes:ifVersion:)`` compares and writes under an advisory lock
/// (`flock` of `.lock` in the directory, which processes on one host, and NFS v4 clients, honour); a version is the
/// SHA-256 of the file's bytes. Temporary files start with `.` and are not objects.
public struct DirectoryReplicaTarget: ReplicaTarget {
    /// The directory the objects are kept in.
    public let directory: String
    private let fileSystem: any FileSystem
    private let mode: UInt32
    /// Writes each object as a state file is written (``DurableWriter``).
    private let writer: DurableWriter

    /// The replica in `directory`, created (with its parents) when missing; files are written with `mode`.
    ///
    /// - Throws: ``ReplicaError`` when the directory cannot be created.
    public init(
        directory: String, fileSystem: any FileSystem = PosixFileSystem(), mode: UInt32 = 0o600
    ) throws(ReplicaError) {
        self.directory = directory
        self.fileSystem = fileSystem
        self.mode = mode
        writer = DurableWriter(fileSystem: fileSystem, mode: mode)
        try makeDirectories(directory, operation: "open the replica directory \(directory)")
    }

    /// Creates `name`'s file by ``DurableWriter/create(_:at:)``, which fails when the path exists (see
    /// ``ReplicaTarget/create(_:bytes:)``).
    public func create(_ name: ReplicaObjectName, bytes: Data) throws(ReplicaError) -> ReplicaCreation {
        let operation = "create \(name) in \(directory)"
        if let existing = try read(name) {
            return existing.bytes == bytes ? .existedWithTheSameBytes : .existedWithOtherBytes
        }
        let target = path(name)
        try makeDirectories(PathText.deletingLastComponent(of: target), operation: operation)
        let created: Bool
        do {
            created = try writer.create(bytes, at: target)
        } catch {
            throw ReplicaError(operation: operation, reason: "\(error)")
        }
        guard !created else { return .created }
        // Another writer created it since the read above: the link refused to replace it.
        return (try read(name))?.bytes == bytes ? .existedWithTheSameBytes : .existedWithOtherBytes
    }

    /// The file's bytes and their SHA-256 as the version (see ``ReplicaTarget/read(_:)``).
    public func read(
        _ name: ReplicaObjectName
    ) throws(ReplicaError) -> (bytes: Data, version: ReplicaObjectVersion)? {
        do {
            guard let bytes = try fileSystem.readFile(at: path(name)) else { return nil }
            return (bytes, Self.version(of: bytes))
        } catch {
            throw ReplicaError(operation: "read \(name) in \(directory)", reason: "\(error)")
        }
    }

    /// The files under the directory, without the temporary ones (see ``ReplicaTarget/list(prefix:)``).
    public func list(prefix: String) throws(ReplicaError) -> [ReplicaObject] {
        var found: [ReplicaObject] = []
        do {
            try collect("", into: &found)
        } catch {
            throw ReplicaError(operation: "list \(directory)", reason: "\(error)")
        }
        return found.filter { $0.name.rawValue.hasPrefix(prefix) }.sorted { $0.name < $1.name }
    }

    /// Compares and writes under the directory's `.lock` (see ``ReplicaTarget/replace(_:bytes:ifVersion:)``).
    public func replace(
        _ name: ReplicaObjectName, bytes: Data, ifVersion expected: ReplicaObjectVersion?
    ) throws(ReplicaError) -> ReplicaObjectVersion? {
        let operation = "replace \(name) in \(directory)"
        let lock: Int32
        do {
            lock = try lockDirectory()
        } catch {
            throw ReplicaError(operation: operation, reason: "cannot lock \(directory)/.lock: \(error)")
        }
        defer { try? fileSystem.close(lock, path: directory + "/.lock") }
        guard try read(name)?.version == expected else { return nil }
        let target = path(name)
        try makeDirectories(PathText.deletingLastComponent(of: target), operation: operation)
        do {
            try writer.write(bytes, to: target)
        } catch {
            throw ReplicaError(operation: operation, reason: "\(error)")
        }
        return Self.version(of: bytes)
    }

    /// Unlinks the file and fsyncs its directory (see ``ReplicaTarget/remove(_:)``).
    public func remove(_ name: ReplicaObjectName) throws(ReplicaError) {
        do {
            try fileSystem.unlink(path(name))
            try fileSystem.fsyncDirectory(PathText.deletingLastComponent(of: path(name)))
        } catch let error where error.errno == ENOENT {
            return
        } catch {
            throw ReplicaError(operation: "remove \(name) in \(directory)", reason: "\(error)")
        }
    }

    /// A directory file's version: the SHA-256 of its bytes.
    static func version(of bytes: Data) -> ReplicaObjectVersion {
        ReplicaObjectVersion(SHA256Digest.hex(bytes))
    }

    private func path(_ name: ReplicaObjectName) -> String { directory + "/" + name.rawValue }

    /// Takes `.lock`, waiting up to 10 s while another writer holds it.
    private func lockDirectory() throws(FileSystemError) -> Int32 {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            do {
                return try fileSystem.lockFile(directory + "/.lock", mode: mode)
            } catch let error where error.errno == EWOULDBLOCK && ContinuousClock.now < deadline {
                usleep(1000)
            }
        }
    }

    /// Creates `path` and its missing parents.
    private func makeDirectories(_ path: String, operation: String) throws(ReplicaError) {
        var missing: [String] = []
        var current = path
        while !current.isEmpty, current != "/", (try? fileSystem.attributes(of: current)) == nil {
            missing.append(current)
            current = PathText.deletingLastComponent(of: current)
        }
        for directory in missing.reversed() {
            do {
                try fileSystem.createDirectory(directory, mode: 0o700)
            } catch let error where error.errno == EEXIST {
                continue
            } catch {
                throw ReplicaError(operation: operation, reason: "cannot create \(directory): \(error)")
            }
        }
    }

    /// Adds the objects under `relative` (`""`: the directory itself), skipping names that start with `.`.
    private func collect(_ relative: String, into found: inout [ReplicaObject]) throws(FileSystemError) {
        let absolute = relative.isEmpty ? directory : directory + "/" + relative
        for entry in try fileSystem.contentsOfDirectory(absolute) where !entry.hasPrefix(".") {
            let name = relative.isEmpty ? entry : relative + "/" + entry
            do {
                // A directory lists; a file answers ENOTDIR.
                _ = try fileSystem.contentsOfDirectory(directory + "/" + name)
                try collect(name, into: &found)
            } catch let error where error.errno == ENOTDIR {
                if let objectName = ReplicaObjectName(name),
                    let attributes = try fileSystem.attributes(of: directory + "/" + name)
                {
                    found.append(ReplicaObject(name: objectName, byteCount: attributes.size))
                }
            }
        }
    }
}
