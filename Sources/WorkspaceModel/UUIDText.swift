import Foundation

/// The text form of a UUID, `8-4-4-4-12` hexadecimal digits, read and written without Foundation's parser (which
/// goes through `sscanf` on Linux and took a fifth of a large workspace's load).
enum UUIDText {
    /// The UUID `bytes` spell, in any letter case, and whether they spell it in lower case; `nil` unless they are
    /// exactly 36 bytes of hexadecimal digits with dashes at offsets 8, 13, 18 and 23.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (uuid: UUID, isLowerCase: Bool)? {
        guard bytes.count == 36 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var isLowerCase = true
        let parsed = withUnsafeMutableBytes(of: &value) { out -> Bool in
            var offset = 0
            for index in 0..<16 {
                if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                    guard bytes[offset] == UInt8(ascii: "-") else { return false }
                    offset += 1
                }
                guard let high = digit(bytes[offset], &isLowerCase), let low = digit(bytes[offset + 1], &isLowerCase)
                else { return false }
                out[index] = high << 4 | low
                offset += 2
            }
            return true
        }
        return parsed ? (UUID(uuid: value), isLowerCase) : nil
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

    /// The value of one hexadecimal digit; clears `isLowerCase` at an upper-case letter.
    private static func digit(_ byte: UInt8, _ isLowerCase: inout Bool) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"):
            isLowerCase = false
            return byte &- UInt8(ascii: "A") &+ 10
        default: return nil
        }
    }
}
