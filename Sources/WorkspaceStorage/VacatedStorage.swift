#if canImport(Glibc)
import Glibc
#endif

/// The end of an array's storage that `popLast` has emptied, given back to the kernel a page at a time
/// (`MADV_DONTNEED`) while the array is still alive, for ``Swift/Array/takingEach(_:)``: a migration step that
/// converts a large array holds the old array's storage beside the new one's until the step ends, and the model
/// is then at its largest (a 50 MB workspace's favorites, 2 MB of each, were the peak of a start that migrated it).
///
/// Only the pages wholly past the last element are given back: they hold no element (each was moved out by
/// `popLast`), nor the array's header, which lies before its first element, nor the allocator's record of the next
/// block, which lies after the storage's capacity. A page given back reads as zeros if touched again; nothing does,
/// and the allocator frees the storage whole as before.
struct VacatedStorage {
    /// How much emptied storage is given back at a time, and the least an array must hold for any to be.
    static let interval = 256 << 10

    private let stride: Int
    private let pageSize: Int
    /// The address from which every page is given back already; the end of the storage at first.
    private var releasedFrom: Int

    /// The empty end of `array`'s storage, as `popLast` leaves it; nil when the array's storage is smaller than
    /// ``interval`` (nothing worth a system call).
    init?<Element>(of array: inout [Element]) {
        stride = MemoryLayout<Element>.stride
        pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let capacity = array.capacity
        guard pageSize > 0, stride > 0, capacity * stride >= Self.interval,
            let base = array.withUnsafeMutableBufferPointer({ $0.baseAddress })
        else { return nil }
        releasedFrom = (Int(bitPattern: base) + capacity * stride) / pageSize * pageSize
    }

    /// Gives back the pages past `array`'s last element once ``interval`` of them are not given back yet.
    mutating func release<Element>(_ array: inout [Element]) {
        guard let base = array.withUnsafeMutableBufferPointer({ $0.baseAddress }) else { return }
        let end = Int(bitPattern: base) + array.count * stride
        let start = (end + pageSize - 1) / pageSize * pageSize
        guard releasedFrom - start >= Self.interval, let address = UnsafeMutableRawPointer(bitPattern: start) else {
            return
        }
        _ = madvise(address, releasedFrom - start, MADV_DONTNEED)
        releasedFrom = start
    }
}
