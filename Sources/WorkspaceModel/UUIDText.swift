import FoundationEssentials

/// The text form of a UUID, `8-4-4-4-12` hexadecimal digits, read and written without Foundation's parser (which
/// goes through `sscanf` on Linux, and a load reads every id of the workspace).
enum UUIDText {
    /// The UUID spelled by `bytes` (8-4-4-4-12 hexadecimal digits, either letter case), and whether every letter
    /// was lower case; nil for any other text. The 32 digits are gathered into four words and each word's eight
    /// digits are checked and converted at once (``hexDigits(_:)``): a replay parses an id per journal record, and
    /// a byte at a time through a table was a large part of a record's decode.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (uuid: UUID, isLowerCase: Bool)? {
        guard bytes.count == 36, let base = bytes.baseAddress, base[8] == dash, base[13] == dash, base[18] == dash,
            base[23] == dash
        else { return nil }
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { out in
            let out = out.baseAddress!
            out.copyMemory(from: base, byteCount: 8)
            out.advanced(by: 8).copyMemory(from: base + 9, byteCount: 4)
            out.advanced(by: 12).copyMemory(from: base + 14, byteCount: 4)
            out.advanced(by: 16).copyMemory(from: base + 19, byteCount: 4)
            out.advanced(by: 20).copyMemory(from: base + 24, byteCount: 12)
        }
        let words = (
            hexDigits(UInt64(littleEndian: digits.0)), hexDigits(UInt64(littleEndian: digits.1)),
            hexDigits(UInt64(littleEndian: digits.2)), hexDigits(UInt64(littleEndian: digits.3))
        )
        guard words.0.valid, words.1.valid, words.2.valid, words.3.valid else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { out in
            out.storeBytes(of: words.0.bytes.littleEndian, toByteOffset: 0, as: UInt32.self)
            out.storeBytes(of: words.1.bytes.littleEndian, toByteOffset: 4, as: UInt32.self)
            out.storeBytes(of: words.2.bytes.littleEndian, toByteOffset: 8, as: UInt32.self)
            out.storeBytes(of: words.3.bytes.littleEndian, toByteOffset: 12, as: UInt32.self)
        }
        let hasUpperCase = words.0.hasUpperCase || words.1.hasUpperCase || words.2.hasUpperCase || words.3.hasUpperCase
        return (UUID(uuid: value), !hasUpperCase)
    }

    /// The four bytes eight hexadecimal digits spell (`x` holds the digits' ASCII, the first in its lowest byte;
    /// the bytes in the same order, the first in the lowest), whether every byte is a digit, and whether one is an
    /// upper-case letter.
    @inline(__always)
    static func hexDigits(_ x: UInt64) -> (bytes: UInt32, valid: Bool, hasUpperCase: Bool) {
        let highs: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        // Each byte's high bit set when it lies in lower...upper; exact for bytes below 0x80 (no carry between
        // bytes), which the check of `x & highs` ensures first.
        func inRange(_ x: UInt64, _ lower: UInt64, _ upper: UInt64) -> UInt64 {
            (x &+ ones &* (0x80 - lower)) & ~(x &+ ones &* (0x7F - upper)) & highs
        }
        let folded = x | ones &* 0x20  // 'A'...'F' as 'a'...'f'; digits unchanged
        // Digits checked before folding: folding would make 0x10...0x19 digits.
        let valid = x & highs == 0 && (inRange(x, 0x30, 0x39) | inRange(folded, 0x61, 0x66)) == highs
        let hasUpperCase = inRange(x, 0x41, 0x46) != 0
        // A digit's value: its low four bits, plus 9 for a letter (bit 6 set).
        let nibbles = (folded & (ones &* 0x0F)) &+ ((folded >> 6) & ones) &* 9
        // Pairs of nibbles into bytes, one in the low half of each 16-bit lane, then the four lanes' bytes packed.
        let lanes: UInt64 = 0x000F_000F_000F_000F
        let pairs = ((nibbles & lanes) << 4) | ((nibbles >> 8) & lanes)
        let packed =
            (pairs & 0xFF) | ((pairs >> 8) & 0xFF00) | ((pairs >> 16) & 0xFF_0000) | ((pairs >> 24) & 0xFF00_0000)
        return (UInt32(truncatingIfNeeded: packed), valid, hasUpperCase)
    }

    private static let dash = UInt8(ascii: "-")

    /// `uuid` in lower case.
    static func lowerCase(_ uuid: UUID) -> String {
        let hex: StaticString = "0123456789abcdef"
        return withUnsafeBytes(of: uuid.uuid) { source in
            String(unsafeUninitializedCapacity: 36) { out in
                hex.withUTF8Buffer { hex in
                    var offset = 0
                    for index in 0..<16 {
                        if index == 4 || index == 6 || index == 8 || index == 10 {
                            out[offset] = UInt8(ascii: "-")
                            offset += 1
                        }
                        out[offset] = hex[Int(source[index] >> 4)]
                        out[offset + 1] = hex[Int(source[index] & 0x0f)]
                        offset += 2
                    }
                }
                return 36
            }
        }
    }
}
