import Foundation
import Glibc

/// A state file's bytes as a load holds them: read into memory, or mapped from the file.
package struct LoadBytes: Sendable {
    /// The file's bytes.
    package let data: Data
    /// The address of ``data``'s bytes when they are a private, read-only mapping of the file (nil when they were
    /// read): a read of exactly those bytes may then give back the pages it has passed (the kernel reads them from
    /// the file again if they are touched after).
    package let mappedAt: Int?

    /// Bytes read into memory.
    package init(read data: Data) {
        self.data = data
        self.mappedAt = nil
    }

    /// Bytes mapped from the file at `address`.
    init(mapped data: Data, at address: Int) {
        self.data = data
        self.mappedAt = address
    }
}

extension PosixFileSystem {
    /// The whole file for a load: mapped read-only when it holds at least ``mapsFilesFrom`` bytes, read with
    /// ``readFile(at:)`` otherwise (or when it cannot be mapped); nil when there is no such file.
    ///
    /// A mapping copies nothing into the process's heap, and a load that reads it front to back gives back the
    /// pages it has passed (`MADV_DONTNEED`), so that the file is never resident in the process all at once: at
    /// 50 MB, the bytes a read had held until the model was built. A mapping sees the file as it is on disk: a
    /// save replaces the file by rename, which leaves the mapped one whole, but a file another process truncates
    /// in place while it is mapped raises `SIGBUS` where the read touches a page past the new end.
    package func loadBytes(at path: String) throws(FileSystemError) -> LoadBytes? {
        try map(at: path, from: mapsFilesFrom, populating: false)
    }

    /// The whole file to read in place at once, such as a history segment a read of the past replays: mapped
    /// read-only, with every page mapped by the call (`MAP_POPULATE`), when it holds at least `threshold` bytes;
    /// read with ``readFile(at:)`` otherwise. nil when there is no such file.
    ///
    /// A read copies the file from the page cache into fresh heap pages, each of which faults when it is first
    /// written: at 16 MiB of segments, 6 ms of a read of the past's 74 ms of CPU, where the mapping costs one call
    /// per file. The mapped file must not be cut short while it is mapped (see ``loadBytes(at:)``).
    package func mappedBytes(at path: String, from threshold: Int) throws(FileSystemError) -> Data? {
        try map(at: path, from: threshold, populating: true)?.data
    }

    private func map(at path: String, from threshold: Int, populating: Bool) throws(FileSystemError) -> LoadBytes? {
        try withFileOpenForReading(at: path) { descriptor, size throws(FileSystemError) in
            let flags = MAP_PRIVATE | (populating ? MAP_POPULATE : 0)
            let mapping = size >= max(threshold, 1) ? mmap(nil, size, PROT_READ, flags, descriptor, 0) : nil
            guard let mapping, mapping != MAP_FAILED else {
                // Small, or not mappable (a pipe, a file system without mmap): read, as readFile(at:) does.
                return LoadBytes(read: try read(descriptor, size: size, path: path))
            }
            // The mapping stays valid once the descriptor is closed. Read-ahead for a front-to-back read, and
            // pages behind the read dropped sooner.
            if !populating { _ = madvise(mapping, size, MADV_SEQUENTIAL) }
            let data = Data(bytesNoCopy: mapping, count: size, deallocator: .custom { munmap($0, $1) })
            return LoadBytes(mapped: data, at: Int(bitPattern: mapping))
        }
    }
}

extension FileSystem {
    /// The whole file for a load (``LoadBytes``): mapped by the real file system when it is large
    /// (``PosixFileSystem/loadBytes(at:)``), read by any other; nil when there is no such file.
    package func bytesForLoad(at path: String) throws(FileSystemError) -> LoadBytes? {
        if let posix = self as? PosixFileSystem { return try posix.loadBytes(at: path) }
        return try readFile(at: path).map { LoadBytes(read: $0) }
    }

    /// The whole file to read in place at once, such as a history segment: mapped with every page by the real file
    /// system when it is large (``PosixFileSystem/mappedBytes(at:from:)``, from its `mapsSegmentsFrom`), read by any
    /// other; nil when there is no such file.
    package func bytesInPlace(at path: String) throws(FileSystemError) -> Data? {
        if let posix = self as? PosixFileSystem { return try posix.mappedBytes(at: path, from: posix.mapsSegmentsFrom) }
        return try readFile(at: path)
    }
}
