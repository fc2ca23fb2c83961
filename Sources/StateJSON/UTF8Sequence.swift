/// Strict UTF-8 (RFC 3629), as `JSONDecoder` and the state file want it, shared by the defect scanner and the
/// pull reader.
enum UTF8Sequence {
    /// The length of the valid UTF-8 sequence starting with the non-ASCII byte at `index` of the `count` bytes at
    /// `base`, or 0 when it is not one (a stray continuation byte, an overlong form, a surrogate, beyond
    /// U+10FFFF, or cut short).
    @inline(__always)
    static func length(at index: Int, in base: UnsafeRawPointer, count: Int) -> Int {
        @inline(__always) func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            index + offset < count && (low...high).contains(base.load(fromByteOffset: index + offset, as: UInt8.self))
        }
        switch base.load(fromByteOffset: index, as: UInt8.self) {
        case 0xC2...0xDF:
            return continuation(1) ? 2 : 0
        case 0xE0:
            return continuation(1, 0xA0) && continuation(2) ? 3 : 0
        case 0xED:
            return continuation(1, 0x80, 0x9F) && continuation(2) ? 3 : 0
        case 0xE1...0xEF:
            return continuation(1) && continuation(2) ? 3 : 0
        case 0xF0:
            return continuation(1, 0x90) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3:
            return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4:
            return continuation(1, 0x80, 0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default:
            return 0
        }
    }
}
