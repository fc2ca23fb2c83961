/// A set of id fingerprints of a known count, for the repair's check for a repeated id: open addressing over
/// 64-bit fingerprints of the ids' 128-bit values, placed by multiplying (Fibonacci hashing), with no `Hasher`
/// and no growth, 8 bytes a slot: a load holds it beside the whole model, so it keeps a fingerprint, not the
/// whole 16-byte id and a flag.
///
/// A fingerprint seen twice is not proof: two ids may share one (by chance, about one load in 10⁸ at 400,000
/// ids, or when chosen to), and ids chosen to crowd one place make a probe run long. In both cases the table
/// answers "not sure" (`false`), and the caller compares the ids themselves (it sorts them).
struct IDTable {
    private var slots: [UInt64]
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
        shift = 64 - bits
    }

    /// The longest run of occupied slots a probe walks before the table gives up.
    static let probeLimit = 64

    /// The multiplier of Fibonacci hashing (2⁶⁴ divided by the golden ratio).
    static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The id's fingerprint: its low half, mixed with its high half multiplied; never 0 (an empty slot).
    static func fingerprint(_ id: WorkspaceID) -> UInt64 {
        let value = withUnsafeBytes(of: id.uuid.uuid) { $0.loadUnaligned(as: UInt128.self) }
        let fingerprint = UInt64(truncatingIfNeeded: value) ^ (UInt64(truncatingIfNeeded: value >> 64) &* multiplier)
        return fingerprint == 0 ? 1 : fingerprint
    }

    /// Adds `id`'s fingerprint: true when no id added before had it; false when one had (the same id, or
    /// another with the same fingerprint) or the probe ran past ``probeLimit``.
    mutating func insert(_ id: WorkspaceID) -> Bool {
        let fingerprint = Self.fingerprint(id)
        var index = Int((fingerprint &* Self.multiplier) >> shift)
        let mask = slots.count - 1
        var probes = 0
        while slots[index] != 0 {
            if slots[index] == fingerprint { return false }
            probes += 1
            if probes > Self.probeLimit { return false }
            index = (index + 1) & mask
        }
        slots[index] = fingerprint
        return true
    }
}
