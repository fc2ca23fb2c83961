/// A set of id fingerprints of a known count, for the repair's check for a repeated id: open addressing over
/// 64-bit fingerprints of the ids' 128-bit values, placed by multiplying (Fibonacci hashing), with no `Hasher`
/// and no growth. A slot keeps 32 bits of the fingerprint (its tag), 4 bytes, and the table is sized to be two
/// thirds full: a load holds it beside the whole model at its largest, so that its size is the load's peak
/// (a 50 MB workspace's 230,000 tabs: 1.3 MiB; 2 MiB when a table of a power of two slots was at most half full,
/// 4 MiB when slots kept whole fingerprints).
///
/// A tag seen twice is not proof: two ids may share a fingerprint (by chance, or when chosen to), two fingerprints
/// that meet in one probe run may share a tag (each comparison one chance in 2³², and an insert compares one tag
/// on average as the table fills to two thirds: about one load in 10,000 at 400,000 ids), and ids chosen to crowd
/// one place make a probe run long. In each case the table answers "not sure" (`false`), and the caller compares the ids themselves (it sorts
/// them).
struct IDTable {
    private var slots: [UInt32]

    /// A table for up to `capacity` ids, at most two thirds full.
    init(capacity: Int) {
        slots = Array(repeating: 0, count: Self.slotCount(capacity: capacity))
    }

    /// The slots of a table for `capacity` ids: half as many again, and at least 16.
    static func slotCount(capacity: Int) -> Int {
        max(16, capacity + (capacity + 1) / 2)
    }

    /// The slot where the probe for `fingerprint` starts in a table of `slotCount` slots: the fingerprint times
    /// ``multiplier``, scaled to the slot count by keeping the high half of its product with it (any count, not
    /// only a power of two; for 2ᵇ slots, the top b bits of the product).
    static func place(_ fingerprint: UInt64, slotCount: Int) -> Int {
        Int((fingerprint &* multiplier).multipliedFullWidth(by: UInt64(slotCount)).high)
    }

    /// The longest run of occupied slots a probe walks before the table gives up. At two thirds full the longest
    /// probe among 230,000 random ids walks 60 to 90 slots (simulated), and the chance of a longer one falls by a
    /// factor e about every 14 slots past that: random ids never reach the limit, ids chosen to crowd one place
    /// soon do.
    static let probeLimit = 256

    /// The multiplier of Fibonacci hashing (2⁶⁴ divided by the golden ratio).
    static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The id's fingerprint: its low half, mixed with its high half multiplied.
    static func fingerprint(_ id: WorkspaceID) -> UInt64 {
        let value = id.number
        return UInt64(truncatingIfNeeded: value) ^ (UInt64(truncatingIfNeeded: value >> 64) &* multiplier)
    }

    /// The multiplier of a tag: another odd constant, so that a tag and a place mix a fingerprint differently.
    static let tagMultiplier: UInt64 = 0xC2B2_AE3D_27D4_EB4F

    /// What a slot keeps of a fingerprint: the top 32 bits of it times ``tagMultiplier``; never 0 (an empty
    /// slot). Every bit of the fingerprint reaches them: ids that differ only in a few bytes (sequential ones)
    /// have fingerprints that differ only in a few bits, and a tag of fixed bits would be the same for all.
    static func tag(_ fingerprint: UInt64) -> UInt32 {
        let tag = UInt32(truncatingIfNeeded: (fingerprint &* tagMultiplier) >> 32)
        return tag == 0 ? 1 : tag
    }

    /// Adds `id`'s fingerprint: true when no id added before had its tag in the probe run; false when one had
    /// (the same id, another with the same fingerprint, or a tag shared by chance) or the probe ran past
    /// ``probeLimit``.
    mutating func insert(_ id: WorkspaceID) -> Bool {
        let fingerprint = Self.fingerprint(id)
        var index = Self.place(fingerprint, slotCount: slots.count)
        let tag = Self.tag(fingerprint)
        var probes = 0
        while slots[index] != 0 {
            if slots[index] == tag { return false }
            probes += 1
            if probes > Self.probeLimit { return false }
            index += 1
            if index == slots.count { index = 0 }
        }
        slots[index] = tag
        return true
    }
}
