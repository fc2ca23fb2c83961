/// A set of ids of a known count, for the repair's check for a repeated id: open addressing over the ids'
/// 128-bit values, hashed by multiplying (Fibonacci hashing), with no `Hasher` and no growth. Ids are random
/// (version 4), so their bits spread well; ids chosen to collide make a probe run long, and the table gives up
/// (`nil`) rather than take quadratic time: the caller then sorts.
struct IDTable {
    private var slots: [UInt128]
    private var used: [Bool]
    private let shift: UInt64

    /// A table for up to `capacity` ids, at most half full.
    init(capacity: Int) {
        var size = 16
        var bits: UInt64 = 4
        while size < capacity * 2 {
            size *= 2
            bits += 1
        }
        slots = Array(repeating: 0, count: size)
        used = Array(repeating: false, count: size)
        shift = 64 - bits
    }

    /// The longest run of occupied slots a probe walks before the table gives up.
    static let probeLimit = 64

    /// Adds `id`: true, or false when it is there already; nil when its probe ran past ``probeLimit``.
    mutating func insert(_ id: WorkspaceID) -> Bool? {
        let value = withUnsafeBytes(of: id.uuid.uuid) { $0.loadUnaligned(as: UInt128.self) }
        let mixed = UInt64(truncatingIfNeeded: value) ^ UInt64(truncatingIfNeeded: value >> 64)
        var index = Int((mixed &* 0x9E37_79B9_7F4A_7C15) >> shift)
        let mask = slots.count - 1
        var probes = 0
        while used[index] {
            if slots[index] == value { return false }
            probes += 1
            if probes > Self.probeLimit { return nil }
            index = (index + 1) & mask
        }
        used[index] = true
        slots[index] = value
        return true
    }
}
