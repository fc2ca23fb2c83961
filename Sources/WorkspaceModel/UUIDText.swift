import Foundation

/// The text form of a UUID, `8-4-4-4-12` hexadecimal digits, read and written without Foundation's parser (which
/// goes through `sscanf` on Linux and took a fifth of a large workspace's load).
enum UUIDText {
    /// The UUID spelled by `bytes` (8-4-4-4-12 hexadecimal digits, either letter case), and whether every letter
    /// was lower case; nil for any other text. A table gives each byte's digit value (with a bit for an upper-case
    /// letter and one for a byte that is no digit), so an id costs about a hundred instructions.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (uuid: UUID, isLowerCase: Bool)? {
        guard bytes.count == 36, let base = bytes.baseAddress, base[8] == dash, base[13] == dash, base[18] == dash,
            base[23] == dash
        else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var flags: UInt8 = 0
        digitValues.withUnsafeBufferPointer { table in
            withUnsafeMutableBytes(of: &value) { out in
                for index in 0..<16 {
                    let offset = Int(digitOffsets[index])
                    let high = table[Int(base[offset])]
                    let low = table[Int(base[offset + 1])]
                    flags |= high | low
                    out[index] = (high & 0x0F) << 4 | (low & 0x0F)
                }
            }
        }
        guard flags & notADigit == 0 else { return nil }
        return (UUID(uuid: value), flags & upperCase == 0)
    }

    private static let dash = UInt8(ascii: "-")
    /// In ``digitValues``: the byte is an upper-case letter.
    private static let upperCase: UInt8 = 0x10
    /// In ``digitValues``: the byte is no hexadecimal digit.
    private static let notADigit: UInt8 = 0x80
    /// Where each byte's first digit is in the 36 characters.
    private static let digitOffsets: [UInt8] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34]
    /// Each byte's digit value, with ``upperCase`` or ``notADigit``.
    private static let digitValues: [UInt8] = (0...255).map { byte -> UInt8 in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): (UInt8(byte) - UInt8(ascii: "A") + 10) | upperCase
        default: notADigit
        }
    }

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
