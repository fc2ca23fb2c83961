import FoundationEssentials
import Glibc

/// The real file system, through POSIX calls.
public struct PosixFileSystem: FileSystem {
    /// The size from which a load maps the state file instead of reading it (``loadBytes(at:)``).
    package var mapsFilesFrom = 1 << 20
    /// The size from which a read of the past maps a history segment instead of reading it (``mappedBytes(at:from:)``):
    /// below it, a read costs less than a mapping's calls.
    package var mapsSegmentsFrom = 64 << 10

    /// The real file system.
    public init() {}

    /// Reads the whole file, looping on short reads and `EINTR`.
    public func readFile(at path: String) throws(FileSystemError) -> Data? {
        try withFileOpenForReading(at: path) { descriptor, size throws(FileSystemError) in
            try read(descriptor, size: size, path: path)
        }
    }

    /// Reads the whole file into an array, with no copy in between, looping on short reads and `EINTR`.
    public func readBytes(at path: String) throws(FileSystemError) -> [UInt8]? {
        try withFileOpenForReading(at: path) { descriptor, reportedSize throws(FileSystemError) in
            let size = max(reportedSize, 0)
            var failure: Int32?
            var bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                count = 0
                while count < size {
                    let read = retryingOnInterrupt { Glibc.read(descriptor, buffer.baseAddress! + count, size - count) }
                    if read < 0 { failure = errno }
                    if read <= 0 { return }  // An error, or the file shrank since fstat.
                    count += read
                }
            }
            if let failure { throw FileSystemError(operation: "read", path: path, errno: failure) }
            if bytes.count < size { return bytes }
            try readRest(of: descriptor, path: path) { bytes.append(contentsOf: $0) }
            return bytes
        }
    }

    /// Reads the file a piece at a time into one buffer of at most `pieceSize` bytes, looping on `EINTR`, until the
    /// end of the file (wherever it is by then).
    public func readPieces(
        at path: String, pieceSize: Int, _ body: (UnsafeRawBufferPointer) -> Void
    ) throws(FileSystemError) -> Int? {
        try withFileOpenForReading(at: path) { descriptor, size throws(FileSystemError) in
            var total = 0
            // No larger than the file (and one byte to see its end): a whole piece, zeroed, for a small file cost
            // the history's fingerprint of an empty workspace 0.4 ms of a start in page faults and memset.
            let bufferSize = min(pieceSize, max(size + 1, 4096))
            try readRest(of: descriptor, path: path, pieceSize: bufferSize) {
                total += $0.count
                body($0)
            }
            return total
        }
    }

    /// Reads what `descriptor` holds from its offset to the end (past the size fstat reported, when the file may
    /// have grown since), giving it to `append` a buffer of at most `pieceSize` bytes at a time.
    private func readRest(
        of descriptor: Int32, path: String, pieceSize: Int = 64 * 1024, _ append: (UnsafeRawBufferPointer) -> Void
    ) throws(FileSystemError) {
        // Uninitialized: nearly every call finds the end at once, and a zeroed buffer cost each whole-file read
        // 64 KiB of memset and its page faults (nine reads in a start, 0.59 million instructions).
        try withUnsafeTemporaryAllocation(byteCount: max(pieceSize, 1), alignment: 16) {
            (more: UnsafeMutableRawBufferPointer) throws(FileSystemError) in
            while true {
                let count = retryingOnInterrupt { Glibc.read(descriptor, more.baseAddress!, more.count) }
                if count < 0 { throw FileSystemError(operation: "read", path: path, errno: errno) }
                if count == 0 { return }
                append(UnsafeRawBufferPointer(rebasing: more[0..<count]))
            }
        }
    }

    /// Opens `path` read-only and gives `body` the descriptor and the size `fstat` reports, closing it after;
    /// nil when there is no such file.
    ///
    /// - Parameter regularOnly: Refuse anything but a regular file
    ///   (``FileSystemError/notARegularFile(path:mode:)``), opening without blocking (`O_NONBLOCK`) so that a
    ///   FIFO is refused at once instead of holding the caller until a writer comes.
    func withFileOpenForReading<Result>(
        at path: String, regularOnly: Bool = false,
        _ body: (_ descriptor: Int32, _ size: Int) throws(FileSystemError) -> Result
    ) throws(FileSystemError) -> Result? {
        let flags = O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0)
        let descriptor = retryingOnInterrupt { open(path, flags) }
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw FileSystemError(operation: "open", path: path, errno: errno)
        }
        defer { _ = Glibc.close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileSystemError(operation: "fstat", path: path, errno: errno) }
        if regularOnly {
            guard info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path, mode: info.st_mode) }
            // Reads of a regular file block as they always do; cleared for a file system that would honour it.
            let status = fcntl(descriptor, F_GETFL)
            guard status >= 0, fcntl(descriptor, F_SETFL, status & ~O_NONBLOCK) == 0 else {
                throw FileSystemError(operation: "fcntl", path: path, errno: errno)
            }
        }
        return try body(descriptor, Int(info.st_size))
    }

    /// The whole content of the open file `descriptor`, which `fstat` says holds `size` bytes.
    func read(_ descriptor: Int32, size reportedSize: Int, path: String) throws(FileSystemError) -> Data {
        // Read into a buffer of exactly the size fstat reports, and the end of the file found with a read into a
        // small buffer. A load holds these bytes while it decodes: growing the buffer to look for more (as this did)
        // allocated 1.9 times the file (`Data(count:)` also reserves a quarter more). The pages never written were
        // not resident, so RSS did not show it, but the heap did, and so does any allocator that touches them.
        let size = max(reportedSize, 0)
        guard let buffer = malloc(max(size, 1)) else {
            throw FileSystemError(operation: "malloc", path: path, errno: ENOMEM)
        }
        var total = 0
        while total < size {
            let count = retryingOnInterrupt { Glibc.read(descriptor, buffer + total, size - total) }
            if count < 0 {
                let error = errno
                free(buffer)
                throw FileSystemError(operation: "read", path: path, errno: error)
            }
            if count == 0 { break }  // The file shrank since fstat.
            total += count
        }
        var data = Data(bytesNoCopy: buffer, count: total, deallocator: .free)
        if total < size { return data }
        try readRest(of: descriptor, path: path) { data.append(contentsOf: $0) }
        return data
    }

    /// Creates `<directory>/<prefix><random>` with `O_EXCL` and sets its mode exactly (ignoring the umask).
    public func createFile(
        in directory: String, prefix: String, mode: UInt32
    ) throws(FileSystemError) -> (
        descriptor: Int32, path: String
    ) {
        for _ in 0..<16 {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
            let path = directory + "/" + prefix + suffix
            let descriptor = retryingOnInterrupt { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(mode)) }
            if descriptor < 0 {
                if errno == EEXIST { continue }
                throw FileSystemError(operation: "open", path: path, errno: errno)
            }
            guard fchmod(descriptor, mode_t(mode)) == 0 else {
                let error = FileSystemError(operation: "fchmod", path: path, errno: errno)
                _ = Glibc.close(descriptor)
                _ = Glibc.unlink(path)
                throw error
            }
            return (descriptor, path)
        }
        throw FileSystemError(operation: "open", path: directory + "/" + prefix, errno: EEXIST)
    }

    /// One `write(2)`, retried on `EINTR`.
    public func write(
        _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String
    ) throws(FileSystemError)
        -> Int
    {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        let count = retryingOnInterrupt { Glibc.write(descriptor, base, bytes.count) }
        if count < 0 { throw FileSystemError(operation: "write", path: path, errno: errno) }
        return count
    }

    /// `fsync(2)`.
    public func fsync(_ descriptor: Int32, path: String) throws(FileSystemError) {
        guard Glibc.fsync(descriptor) == 0 else { throw FileSystemError(operation: "fsync", path: path, errno: errno) }
    }

    /// `fdatasync(2)`.
    public func fdatasync(_ descriptor: Int32, path: String) throws(FileSystemError) {
        guard Glibc.fdatasync(descriptor) == 0 else {
            throw FileSystemError(operation: "fdatasync", path: path, errno: errno)
        }
    }

    /// `close(2)`; never retried, as Linux frees the descriptor even when close fails.
    public func close(_ descriptor: Int32, path: String) throws(FileSystemError) {
        guard Glibc.close(descriptor) == 0 else { throw FileSystemError(operation: "close", path: path, errno: errno) }
    }

    /// `rename(2)`.
    public func rename(_ source: String, to destination: String) throws(FileSystemError) {
        guard Glibc.rename(source, destination) == 0 else {
            throw FileSystemError(operation: "rename", path: "\(source) -> \(destination)", errno: errno)
        }
    }

    /// `link(2)`.
    public func link(_ source: String, to destination: String) throws(FileSystemError) {
        guard Glibc.link(source, destination) == 0 else {
            throw FileSystemError(operation: "link", path: "\(source) -> \(destination)", errno: errno)
        }
    }

    /// `unlink(2)`.
    public func unlink(_ path: String) throws(FileSystemError) {
        guard Glibc.unlink(path) == 0 else { throw FileSystemError(operation: "unlink", path: path, errno: errno) }
    }

    /// Opens the directory read-only, fsyncs it and closes it.
    public func fsyncDirectory(_ path: String) throws(FileSystemError) {
        let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw FileSystemError(operation: "open", path: path, errno: errno) }
        defer { _ = Glibc.close(descriptor) }
        guard Glibc.fsync(descriptor) == 0 else { throw FileSystemError(operation: "fsync", path: path, errno: errno) }
    }

    /// Lists a directory with `opendir`/`readdir`.
    public func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String] {
        guard let directory = opendir(path) else {
            throw FileSystemError(operation: "opendir", path: path, errno: errno)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// `stat(2)`.
    public func attributes(of path: String) throws(FileSystemError) -> FileAttributes? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw FileSystemError(operation: "stat", path: path, errno: errno)
        }
        let seconds = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        return FileAttributes(
            size: Int(info.st_size), modificationDate: Date(timeIntervalSince1970: seconds),
            mode: UInt32(info.st_mode) & 0o7777)
    }

    /// Opens (creating) `path` and takes `flock(LOCK_EX | LOCK_NB)` on it.
    public func lockFile(_ path: String, mode: UInt32) throws(FileSystemError) -> Int32 {
        let descriptor = retryingOnInterrupt { open(path, O_RDWR | O_CREAT | O_CLOEXEC, mode_t(mode)) }
        guard descriptor >= 0 else { throw FileSystemError(operation: "open", path: path, errno: errno) }
        guard retryingOnInterrupt({ flock(descriptor, LOCK_EX | LOCK_NB) }) == 0 else {
            let error = FileSystemError(operation: "flock", path: path, errno: errno)
            _ = Glibc.close(descriptor)
            throw error
        }
        return descriptor
    }

    /// Replaces the lock file's content with `text`.
    public func writeLockOwner(_ descriptor: Int32, _ text: String, path: String) throws(FileSystemError) {
        guard ftruncate(descriptor, 0) == 0 else {
            throw FileSystemError(operation: "ftruncate", path: path, errno: errno)
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count else { throw FileSystemError(operation: "pwrite", path: path, errno: errno) }
    }
}

extension PosixFileSystem {
    /// The largest file ``overwriteInPlace(_:at:padding:durably:)`` and ``overwriteLockOwner(_:_:path:)``
    /// rewrite: they are meant for small records.
    static let largestOverwrittenFile = 65_536

    /// Opens the file without following a symbolic link or waiting on a FIFO, checks that it is a regular file
    /// that `bytes` fits in (and at most 64 KiB), writes `bytes` and the padding over all of it and, with
    /// `durably`, `fdatasync`s it.
    public func overwriteInPlace(
        _ bytes: [UInt8], at path: String, padding: UInt8, durably: Bool
    ) throws(FileSystemError) -> Bool {
        let descriptor = retryingOnInterrupt { open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        if descriptor < 0 {
            if errno == ENOENT || errno == ELOOP { return false }
            throw FileSystemError(operation: "open", path: path, errno: errno)
        }
        defer { _ = Glibc.close(descriptor) }
        // Freshly opened, the descriptor's offset is 0: the writes cover the file from its start.
        return try overwrite(descriptor, with: bytes, padding: padding, durably: durably, path: path)
    }

    /// Seeks the lock file's descriptor to its start and overwrites it with `text` and spaces, then
    /// `fdatasync`s it; `false` when the file is not a regular file that `text` fits in (and at most 64 KiB).
    public func overwriteLockOwner(_ descriptor: Int32, _ text: String, path: String) throws(FileSystemError) -> Bool {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw FileSystemError(operation: "lseek", path: path, errno: errno)
        }
        return try overwrite(descriptor, with: Array(text.utf8), padding: 0x20, durably: true, path: path)
    }

    /// Writes `bytes` and `padding` from the descriptor's offset to the end of the regular file it is open on,
    /// its size unchanged, and with `durably` `fdatasync`s it; `false`, writing nothing, when the file is not a
    /// regular file of at most 64 KiB that `bytes` fits in.
    private func overwrite(
        _ descriptor: Int32, with bytes: [UInt8], padding: UInt8, durably: Bool, path: String
    ) throws(FileSystemError) -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw FileSystemError(operation: "fstat", path: path, errno: errno)
        }
        let size = Int(status.st_size)
        guard (status.st_mode & S_IFMT) == S_IFREG, size >= bytes.count, size <= Self.largestOverwrittenFile else {
            return false
        }
        var content = bytes
        content.append(contentsOf: repeatElement(padding, count: size - bytes.count))
        let failure = content.withUnsafeBytes { buffer -> FileSystemError? in
            do throws(FileSystemError) {
                try writeAll(buffer, to: descriptor, path: path)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        if durably { try fdatasync(descriptor, path: path) }
        return true
    }
}

func retryingOnInterrupt<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result < 0 && errno == EINTR { continue }
        return result
    }
}
