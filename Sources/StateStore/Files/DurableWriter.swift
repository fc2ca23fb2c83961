import Foundation

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
        "." + (path as NSString).lastPathComponent + ".tmp-"
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
            try fileSystem.rename(file.path, to: path)
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
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }
}
