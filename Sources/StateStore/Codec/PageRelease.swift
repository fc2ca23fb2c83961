import Glibc

/// Gives back to the kernel the pages of a read-only file mapping that a read has passed (`MADV_DONTNEED`), so
/// that they stop counting in the process's resident memory. The file's bytes stay in the page cache, and a page
/// touched again is mapped again from the file: a read that goes back (a `Codable` fallback) reads the same bytes.
///
/// Only for a private, read-only mapping of a file: on heap memory `MADV_DONTNEED` would zero the pages.
struct PageRelease: Sendable {
    /// How far the read goes between two releases: one `madvise` call per 256 KiB. Each reading thread holds up to
    /// this much of the file (and ``StateDirectReader``'s margin) between releases, on top of the model it has
    /// built, so the interval adds to the load's peak, which comes as the read ends: a mebibyte here held 1.3 MB
    /// more of a 50 MB file then. 200 calls for a 50 MB file cost about a millisecond, on both reading threads.
    static let interval = 256 << 10

    /// The mapping's address.
    private let base: Int
    private let count: Int
    private let pageSize: Int

    /// A releaser of the mapping `bytes`; nil when it does not start on a page boundary (not a mapping). The
    /// caller checks that `bytes` are the mapping (``LoadBytes/mappedAt``).
    init?(of bytes: UnsafeRawBufferPointer) {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard let start = bytes.baseAddress, pageSize > 0, Int(bitPattern: start) % pageSize == 0 else { return nil }
        self.base = Int(bitPattern: start)
        self.count = bytes.count
        self.pageSize = pageSize
    }

    /// Gives back the pages from the one `range` starts in to the last that ends before its end. Any thread may
    /// call it: a page given back while another read touches it is read from the file again.
    func release(_ range: Range<Int>) {
        let start = range.lowerBound / pageSize * pageSize
        let end = min(range.upperBound, count) / pageSize * pageSize
        guard end > start, let address = UnsafeMutableRawPointer(bitPattern: base + start) else { return }
        _ = madvise(address, end - start, MADV_DONTNEED)
    }
}
