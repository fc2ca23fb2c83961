import FoundationEssentials
import Glibc

/// Replaces a file's content so that after a crash the file holds either the old or the new bytes, never a mix,
/// and reports success only once the new bytes and the name change are on the device.
///
/// The protocol: create a temporary file in the same directory (mode set exactly), write everything (looping
/// on short writes), fsync it, close it, rename it over the target, fsync the directory. On any error before
/// the rename the temporary file is removed and the target is untouched. fsync is never retried on a
/// descriptor that reported an error (Linux reports a writeback error once): a retry starts over with a new
/// temporary file.
public struct DurableWriter: Sendable {
    /// The file system the writer goes through.
    public let fileSystem: any FileSystem
    /// Permission bits of written files.
    public let mode: UInt32

    /// A writer through `fileSystem` that creates files with `mode`.
    public init(fileSystem: any FileSystem = PosixFileSystem(), mode: UInt32 = 0o600) {
        self.fileSystem = fileSystem
        self.mode = mode
    }

    /// The prefix of temporary files for `path`: `.<name>.tmp-`. Such files are never loaded and are swept.
    public static func temporaryPrefix(for path: String) -> String {
        "." + PathText.lastComponent(of: path) + ".tmp-"
    }

    /// Durably replaces the content of `path` with `data`.
    ///
    /// - Parameters:
    ///   - data: The new content.
    ///   - path: The file to replace (or create).
    ///   - temporaryPrefix: The name prefix of the temporary file; ``temporaryPrefix(for:)`` of `path` unless
    ///     given (a state file's backup copies use the state file's, so that its load sweeps them).
    /// - Throws: ``DurableWriteError`` naming the stage that failed.
    public func write(_ data: Data, to path: String, temporaryPrefix: String? = nil) throws(DurableWriteError) {
        _ = try write(to: path, temporaryPrefix: temporaryPrefix) { (output) throws(DurableWriteError) in
            try output.write(data)
            return true
        }
    }

    /// Durably replaces the content of `path` with what `fill` writes through its ``DurableOutput``, in as many
    /// pieces as it likes, so that a large content need not be in memory at once.
    ///
    /// When `fill` returns `false` (it gave up, say because what it writes cannot be produced this way) the
    /// temporary file is removed, the target is untouched and the result is `false`.
    /// - Parameters:
    ///   - path: The file to replace (or create).
    ///   - temporaryPrefix: As for ``write(_:to:temporaryPrefix:)``.
    ///   - fill: Writes the new content; any error it throws (its output's included) abandons the replace.
    /// - Returns: Whether the file was replaced.
    /// - Throws: ``DurableWriteError`` naming the stage that failed.
    public func write(
        to path: String, temporaryPrefix: String? = nil,
        filling fill: (inout DurableOutput) throws(DurableWriteError) -> Bool
    ) throws(DurableWriteError) -> Bool {
        try put(to: path, temporaryPrefix: temporaryPrefix, exclusively: false, filling: fill)
    }

    /// Durably creates `path` with `data` unless a file of that name exists: the same protocol, but the temporary
    /// file is linked (`link(2)`) to `path` instead of renamed over it, which fails when `path` exists, so a file
    /// another writer created first is never replaced. Returns `false`, having written nothing, when `path` existed.
    ///
    /// - Throws: ``DurableWriteError`` naming the stage that failed (``DurableWriteError/Stage/rename`` for the link).
    public func create(_ data: Data, at path: String) throws(DurableWriteError) -> Bool {
        try put(to: path, temporaryPrefix: nil, exclusively: true) { (output) throws(DurableWriteError) in
            try output.write(data)
            return true
        }
    }

    /// The protocol of ``write(to:temporaryPrefix:filling:)``, placing the temporary file by a rename over `path`,
    /// or `exclusively` by a link to it (`false` when `path` exists).
    private func put(
        to path: String, temporaryPrefix: String?, exclusively: Bool,
        filling fill: (inout DurableOutput) throws(DurableWriteError) -> Bool
    ) throws(DurableWriteError) -> Bool {
        let directory = Self.directory(of: path)
        let file: (descriptor: Int32, path: String)
        do {
            file = try fileSystem.createFile(
                in: directory, prefix: temporaryPrefix ?? Self.temporaryPrefix(for: path), mode: mode)
        } catch {
            throw DurableWriteError(stage: .create, path: path, underlying: error)
        }
        var open = true
        func abandon() {
            if open { try? fileSystem.close(file.descriptor, path: file.path) }
            try? fileSystem.unlink(file.path)
        }
        func abandon(_ stage: DurableWriteError.Stage, _ error: FileSystemError) -> DurableWriteError {
            abandon()
            return DurableWriteError(stage: stage, path: path, underlying: error)
        }
        var output = DurableOutput(
            fileSystem: fileSystem, descriptor: file.descriptor, temporaryPath: file.path, targetPath: path)
        do {
            guard try fill(&output) else {
                abandon()
                return false
            }
        } catch {
            abandon()
            throw error
        }
        do {
            try fileSystem.fsync(file.descriptor, path: file.path)
        } catch {
            throw abandon(.fsync, error)
        }
        do {
            open = false
            try fileSystem.close(file.descriptor, path: file.path)
        } catch {
            throw abandon(.close, error)
        }
        do {
            if exclusively {
                try fileSystem.link(file.path, to: path)
                // The file lives on under `path`; the temporary name goes before the directory's fsync.
                try? fileSystem.unlink(file.path)
            } else {
                try fileSystem.rename(file.path, to: path)
            }
        } catch  where exclusively && error.errno == EEXIST {
            abandon()
            return false
        } catch {
            throw abandon(.rename, error)
        }
        do {
            try fileSystem.fsyncDirectory(directory)
        } catch {
            throw DurableWriteError(stage: .directorySync, path: path, underlying: error)
        }
        return true
    }

    /// The directory holding `path` (`.` for a bare name).
    static func directory(of path: String) -> String {
        let directory = PathText.deletingLastComponent(of: path)
        return directory.isEmpty ? "." : directory
    }
}
