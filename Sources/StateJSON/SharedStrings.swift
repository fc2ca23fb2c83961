import Glibc

/// The strings a read made lately, so that an equal string read again shares their storage instead of allocating
/// its own: a model's paths and names repeat close together (a pane's folder in its tabs', a project's root in
/// its favorites'), and each string of more than 15 bytes costs an allocation of its length plus 32 bytes.
///
/// A small table placed by a hash of the bytes, one string a slot, the last one read there: a lookup hashes the
/// bytes eight at a time and compares them with one string. Sharing is invisible to the model: `String` is a
/// value, and a string changed later copies its storage first.
@usableFromInline
package final class SharedStrings {
    /// The table's slots: 256, 4 KiB; the strings of a few records read in a row.
    private var slots: [String]
    /// 64 less the bits of a slot's index.
    private static let shift: UInt64 = 64 - 8
    /// A string this short lives inside the `String` value and allocates nothing: never looked up.
    static let smallLimit = 15

    /// An empty table.
    init() {
        slots = Array(repeating: "", count: 1 << (64 - Self.shift))
    }

    /// The string of `bytes` (valid UTF-8, more than ``smallLimit`` bytes): the one in its slot when it has
    /// these bytes, else a new one, kept in the slot.
    func string(of bytes: UnsafeRawBufferPointer) -> String {
        let slot = Int(Self.hash(bytes) >> Self.shift)
        let kept = slots[slot].utf8.withContiguousStorageIfAvailable { stored in
            stored.count == bytes.count && memcmp(stored.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        }
        if kept == true { return slots[slot] }
        let string = String(decoding: bytes, as: UTF8.self)
        slots[slot] = string
        return string
    }

    /// A hash of at least 8 bytes: each 8-byte word (the last one read from the end) mixed by multiplying.
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = UInt64(bytes.count) &* multiplier
        var offset = 0
        while offset + 8 < bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
            hash ^= hash >> 32
            offset += 8
        }
        hash = (hash ^ bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)) &* multiplier
        return hash
    }
}
