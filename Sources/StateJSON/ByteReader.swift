/// Reads ASCII digits and separators from the front of a buffer.
struct ByteReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    var isAtEnd: Bool { index == bytes.count }

    /// Consumes `character` when it is next.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// Exactly `digits` decimal digits as a number.
    mutating func number(digits: Int) -> Int64? {
        guard bytes.count - index >= digits else { return nil }
        var value: Int64 = 0
        for _ in 0..<digits {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
            index += 1
        }
        return value
    }

    /// One or more digits after a decimal point, as a value in [0, 1); digits past `maximumDigits` are checked
    /// but do not count.
    mutating func fraction(maximumDigits: Int) -> Double? {
        var value: Int64 = 0
        var scale: Int64 = 1
        var count = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            if count < maximumDigits {
                value = value * 10 + Int64(digit)
                scale *= 10
            }
            count += 1
            index += 1
        }
        return count > 0 ? Double(value) / Double(scale) : nil
    }
}
