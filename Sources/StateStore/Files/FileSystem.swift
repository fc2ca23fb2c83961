import FoundationEssentials
import Glibc

/// The file-system calls a state file makes, as a seam so that tests can make any one of them fail.
///
/// ``PosixFileSystem`` is the real one. Every call reports failure by throwing ``FileSystemError``.
public protocol FileSystem: Sendable {
    /// The whole content of the file at `path`, or `nil` when there is no such file.
    func readFile(at path: String) throws(FileSystemError) -> Data?
    /// The whole content of the file at `path` as an array, or `nil` when there is no such file: for readers that
    /// scan the bytes in place (journal segments). Has a default: ``readFile(at:)``, copied into an array;
    /// ``PosixFileSystem`` reads into the array directly.
    func readBytes(at path: String) throws(FileSystemError) -> [UInt8]?
    /// Reads the file at `path` front to back, giving `body` its bytes at most `pieceSize` at a time; returns how
    /// many bytes it gave, or `nil` when there is no such file. For checksums of files too large to be worth holding
    /// whole (a history snapshot is the state file). Has a default: ``readFile(at:)``, given in one piece;
    /// ``PosixFileSystem`` reads a piece at a time into one buffer.
    func readPieces(
        at path: String, pieceSize: Int, _ body: (UnsafeRawBufferPointer) -> Void
    ) throws(FileSystemError) -> Int?
    /// Creates a new file with a unique name in `directory` starting with `prefix`, opened for writing with
    /// `O_CREAT | O_EXCL | O_CLOEXEC` and exactly `mode`; returns its descriptor and path.
    func createFile(
        in directory: String, prefix: String, mode: UInt32
    ) throws(FileSystemError) -> (
        descriptor: Int32, path: String
    )
    /// Writes from `bytes` once, returning how many bytes were written (which may be fewer).
    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(FileSystemError) -> Int
    /// Flushes the file's data and metadata to the device.
    func fsync(_ descriptor: Int32, path: String) throws(FileSystemError)
    /// Flushes the file's data and its size to the device, not its timestamps (an append made durable). Has a
    /// default: ``fsync(_:path:)``.
    func fdatasync(_ descriptor: Int32, path: String) throws(FileSystemError)
    /// Closes the descriptor.
    func close(_ descriptor: Int32, path: String) throws(FileSystemError)
    /// Atomically replaces `destination` with `source`.
    func rename(_ source: String, to destination: String) throws(FileSystemError)
    /// Creates `destination` as another name for `source`; fails with `EEXIST` rather than replace anything.
    func link(_ source: String, to destination: String) throws(FileSystemError)
    /// Removes a name.
    func unlink(_ path: String) throws(FileSystemError)
    /// Flushes a directory's entries (creations, renames, removals) to the device.
    func fsyncDirectory(_ path: String) throws(FileSystemError)
    /// Flushes every file and name of the file system holding `path` to the device (`syncfs(2)` by default): one
    /// call for many small files written without their own sync.
    func syncFileSystem(containing path: String) throws(FileSystemError)
    /// Creates the directory `path` with `mode`; succeeds when it exists already. Has a default: `mkdir(2)`.
    func createDirectory(_ path: String, mode: UInt32) throws(FileSystemError)
    /// The names in a directory, without `.` and `..`.
    func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String]
    /// Size and modification time of a file, or `nil` when there is none.
    func attributes(of path: String) throws(FileSystemError) -> FileAttributes?
    /// Takes an exclusive advisory lock (`flock`) on `path`, creating it with `mode`; fails with `EWOULDBLOCK`
    /// when another open file holds it. Returns the descriptor that holds the lock.
    func lockFile(_ path: String, mode: UInt32) throws(FileSystemError) -> Int32
    /// Writes `text` as the whole content of the open lock file (the holder's pid, for other processes).
    func writeLockOwner(_ descriptor: Int32, _ text: String, path: String) throws(FileSystemError)
    /// Overwrites the existing regular file at `path` in place: `bytes` from its start, then `padding` up to its
    /// size, which does not change; with `durably`, flushes its data (`fdatasync(2)`: no new name and no new size
    /// to flush, so no directory sync either). Returns `false`, writing nothing, when there is no such file or
    /// `bytes` does not fit in it. Bytes that were not flushed may be torn by a power cut. Has a default that
    /// returns `false`, so that callers write a new file and rename it over instead.
    func overwriteInPlace(
        _ bytes: [UInt8], at path: String, padding: UInt8, durably: Bool
    ) throws(FileSystemError) -> Bool
    /// Overwrites the open lock file in place with `text`, then spaces up to its size, which does not change,
    /// and flushes its data (`fdatasync(2)`): cheaper than ``writeLockOwner(_:_:path:)`` and an `fsync`, which
    /// change the size and so commit the file system's journal. Returns `false`, writing nothing, when `text`
    /// does not fit. Has a default that returns `false`, so that callers replace the text and fsync instead.
    func overwriteLockOwner(_ descriptor: Int32, _ text: String, path: String) throws(FileSystemError) -> Bool
}

/// What a state file needs to know about a file besides its content.
public struct FileAttributes: Sendable, Equatable {
    /// Size in bytes.
    public var size: Int
    /// Last modification.
    public var modificationDate: Date
    /// Permission bits.
    public var mode: UInt32

    /// Attributes with the given values.
    public init(size: Int, modificationDate: Date, mode: UInt32) {
        self.size = size
        self.modificationDate = modificationDate
        self.mode = mode
    }
}

extension FileSystem {
    /// ``readFile(at:)``'s bytes, copied into an array.
    public func readBytes(at path: String) throws(FileSystemError) -> [UInt8]? {
        try readFile(at: path).map { [UInt8]($0) }
    }

    /// ``readFile(at:)``'s bytes, given to `body` in one piece.
    public func readPieces(
        at path: String, pieceSize: Int, _ body: (UnsafeRawBufferPointer) -> Void
    ) throws(FileSystemError) -> Int? {
        guard let data = try readFile(at: path) else { return nil }
        data.withUnsafeBytes { body($0) }
        return data.count
    }

    /// Flushes the file's data, and the metadata needed to read it back (its size), to the device: what makes an
    /// append durable. This default calls ``fsync(_:path:)``; ``PosixFileSystem`` uses `fdatasync(2)`, which skips
    /// the timestamps.
    public func fdatasync(_ descriptor: Int32, path: String) throws(FileSystemError) {
        try fsync(descriptor, path: path)
    }

    /// `syncfs(2)` on a descriptor of `path` (`sync(2)` where the C library has no `syncfs`).
    public func syncFileSystem(containing path: String) throws(FileSystemError) {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError(operation: "open", path: path, errno: errno) }
        defer { _ = Glibc.close(descriptor) }
        guard let syncfs = FileSystemSync.syncfs else {
            Glibc.sync()
            return
        }
        guard syncfs(descriptor) == 0 else { throw FileSystemError(operation: "syncfs", path: path, errno: errno) }
    }

    /// Creates the directory with `mkdir(2)`; an existing one is not an error.
    public func createDirectory(_ path: String, mode: UInt32) throws(FileSystemError) {
        guard Glibc.mkdir(path, mode_t(mode)) == 0 || errno == EEXIST else {
            throw FileSystemError(operation: "mkdir", path: path, errno: errno)
        }
    }

    /// Writes every byte of `bytes`, looping on short writes; a write that makes no progress is `EIO`.
    func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws(FileSystemError) {
        var offset = 0
        while offset < bytes.count {
            let count = try write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[offset...]), path: path)
            guard count > 0 else { throw FileSystemError(operation: "write", path: path, errno: EIO) }
            offset += count
        }
    }

    /// Overwrites nothing and returns `false`: the caller writes a new file and renames it over.
    public func overwriteInPlace(
        _ bytes: [UInt8], at path: String, padding: UInt8, durably: Bool
    ) throws(FileSystemError) -> Bool {
        false
    }

    /// Overwrites nothing and returns `false`: the caller replaces the lock file's text and fsyncs it.
    public func overwriteLockOwner(_ descriptor: Int32, _ text: String, path: String) throws(FileSystemError) -> Bool {
        false
    }

    /// Whether there is a file (or anything else) at `path`; a path that cannot be examined counts as absent.
    public func exists(_ path: String) -> Bool {
        ((try? attributes(of: path)) ?? nil) != nil
    }
}
