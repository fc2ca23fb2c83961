import FoundationEssentials
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
    ///
    /// - Throws: ``FileSystemError/notARegularFile(path:mode:)`` for a directory, FIFO, socket or device: a
    ///   FIFO would hold the load until a writer came.
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
        try withFileOpenForReading(at: path, regularOnly: true) { descriptor, size throws(FileSystemError) in
            let mapping: UnsafeMutableRawPointer? =
                if size < max(threshold, 1) {
                    nil
                } else if populating {
                    mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, 0)
                } else {
                    Self.mapAcrossTableBoundaries(descriptor, size: size)
                }
            guard let mapping, mapping != MAP_FAILED else {
                // Small, or not mappable (a file system without mmap): read, as readFile(at:) does.
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

extension PosixFileSystem {
    /// The span of one page table, and the largest page-cache folio: 2 MiB with 4 KiB pages.
    private static let pageTableSpan = 2 << 20

    /// `size` bytes of the file mapped read-only and private, one page past a ``pageTableSpan`` boundary; nil when
    /// it cannot be mapped.
    ///
    /// Linux 6.18 maps a whole large folio of the page cache at the first fault in it when the folio lies within one
    /// page table of the mapping, and ext4 caches a file that was just written (a save) in folios of up to 2 MiB.
    /// At the usual address (aligned to 2 MiB, like the file's folios) each reading thread of a load then held up to
    /// 2 MiB of the file mapped ahead of it, 3.4 MB more at the peak of a 50 MB load. One page off, no folio lies
    /// within one page table, and a fault maps its 64 KiB fault-around window as with small folios. The reserved
    /// address range is given back around the mapping.
    private static func mapAcrossTableBoundaries(_ descriptor: Int32, size: Int) -> UnsafeMutableRawPointer? {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let reservedSize = size + 2 * pageTableSpan
        guard page > 0, let reserved = mmap(nil, reservedSize, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            reserved != MAP_FAILED
        else { return nil }
        let base = Int(bitPattern: reserved)
        let start = (base + pageTableSpan - 1) / pageTableSpan * pageTableSpan + page
        let end = (start + size + page - 1) / page * page
        guard
            let mapped = mmap(
                UnsafeMutableRawPointer(bitPattern: start), size, PROT_READ, MAP_PRIVATE | MAP_FIXED,
                descriptor, 0),
            mapped != MAP_FAILED
        else {
            munmap(reserved, reservedSize)
            return nil
        }
        munmap(reserved, start - base)
        if base + reservedSize > end { munmap(UnsafeMutableRawPointer(bitPattern: end), base + reservedSize - end) }
        return mapped
    }
}
