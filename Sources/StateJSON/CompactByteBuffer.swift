import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes a ``CompactJSONWriter`` writes: one `malloc` block, grown with `realloc`, that becomes the encoded
/// `Data` without a copy.
///
/// An array grown by appending allocates a chain of blocks, each twice the last, and the `Data` made from it is one
/// more copy: about three times the document allocated and written for every save. On a background thread glibc
/// serves those blocks from the thread's own arena, which gives freed pages back at once, so every save of a large
/// state would fault them all in again.
/// Here a save reserves about what the last one wrote, `realloc` grows a large block by remapping its pages
/// rather than copying them, and ``takeData()`` hands the block to `Data`, which frees it.
///
/// Like its writer, it is used by one encoding on one thread, so its properties skip the exclusivity checks.
final class CompactByteBuffer {
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>?
    /// The bytes written so far.
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private var capacity = 0

    /// An empty buffer with room for `capacity` bytes.
    init(capacity: Int) {
        grow(toAtLeast: Swift.max(capacity, 256))
    }

    deinit {
        free(base)
    }

    /// The byte at `index`, which must be below ``count``.
    subscript(index: Int) -> UInt8 {
        base.unsafelyUnwrapped[index]
    }

    /// Appends one byte.
    func append(_ byte: UInt8) {
        if count == capacity { grow(toAtLeast: count + 1) }
        base.unsafelyUnwrapped[count] = byte
        count += 1
    }

    /// Appends two bytes (an escape such as `\n`).
    func append(_ first: UInt8, _ second: UInt8) {
        if count + 2 > capacity { grow(toAtLeast: count + 2) }
        base.unsafelyUnwrapped[count] = first
        base.unsafelyUnwrapped[count + 1] = second
        count += 2
    }

    /// Appends `bytes`.
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { grow(toAtLeast: count + bytes.count) }
        (base.unsafelyUnwrapped + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Removes the last `removed` bytes (at most ``count``).
    func removeLast(_ removed: Int) {
        precondition(removed >= 0 && removed <= count, "cannot remove \(removed) of \(count) bytes")
        count -= removed
    }

    /// Calls `body` with the bytes from `start` to the end, valid only during the call.
    func withBytes<Result>(from start: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        precondition(start >= 0 && start <= count, "no byte \(start) in \(count) bytes")
        return try body(UnsafeBufferPointer(start: base.unsafelyUnwrapped + start, count: count - start))
    }

    /// Calls `body` with every byte written so far, then empties the buffer and keeps its block for what comes
    /// next (a writer that hands the document on in pieces).
    func drain<Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Void) throws(Failure) {
        guard count > 0 else { return }
        try body(UnsafeRawBufferPointer(start: base.unsafelyUnwrapped, count: count))
        count = 0
    }

    /// The bytes written, as `Data` that owns the block; the buffer is empty afterwards.
    func takeData() -> Data {
        guard let block = base, count > 0 else { return Data() }
        let data = Data(bytesNoCopy: block, count: count, deallocator: .free)
        base = nil
        count = 0
        capacity = 0
        return data
    }

    /// Makes room for `needed` bytes: at least double the capacity, so appending stays amortized constant.
    private func grow(toAtLeast needed: Int) {
        let newCapacity = Swift.max(needed, capacity * 2)
        guard let block = realloc(base, newCapacity) else {
            fatalError("cannot allocate \(newCapacity) bytes for the encoded state")
        }
        base = block.bindMemory(to: UInt8.self, capacity: newCapacity)
        capacity = newCapacity
    }
}
