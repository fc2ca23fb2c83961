/// A number's text in the document, checked by RFC 8259's grammar, with what its conversions need.
struct JSONNumberText {
    /// The offset of its first byte.
    let start: Int
    /// The offset after its last byte.
    let end: Int
    /// It starts with `-`.
    var isNegative = false
    /// It has neither a fraction nor an exponent.
    var isInteger = true
    /// Its first 19 significant digits (from the first non-zero one) as a number.
    var significand: UInt64 = 0
    /// How many significant digits it has; 0 when all its digits are zeros.
    var significantDigits = 0
    /// The power of ten `significand` is scaled by (exact while `significantDigits` is at most 19; an exponent
    /// beyond a million counts as a million).
    var exponent = 0

    /// A number in `start..<end`, not yet read.
    init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// Adds a digit of the integer part, or of the fraction.
    @inline(__always)
    mutating func append(digit: UInt8, inFraction: Bool) {
        if significantDigits == 0 && digit == 0 {
            if inFraction { exponent -= 1 }
            return
        }
        significantDigits += 1
        if significantDigits <= 19 {
            significand = significand &* 10 &+ UInt64(digit)
            if inFraction { exponent -= 1 }
        } else if !inFraction {
            exponent += 1
        }
    }
}

extension JSONPullReader {
    /// The end of the number whose first byte (`-` or a digit) is at `start`, as JSONDecoder's scanner finds it:
    /// the longest run of digits, `.`, `+`, `-`, `e` and `E` after it, unchecked.
    @inline(__always)
    func numberEnd(from start: Int) -> Int {
        var offset = start + 1
        while offset < bytes.count {
            let byte = bytes[offset]
            // '+' (43), '-' (45), '.' (46), the digits (48...57), 'E' (69) and 'e' (101), as bits of byte - 43.
            let bit = byte &- 43
            guard bit < 64, (UInt64(1) << bit) & 0x0400_0000_0400_7FED != 0 else { break }
            offset += 1
        }
        return offset
    }

    /// The number whose first byte (`-` or a digit) is at `start`, checked by RFC 8259's grammar: what reading it
    /// as any number type checks (`01`, `1.`, `-`, `1e`, `1.2.3` are refused).
    func checkedNumber(from start: Int) throws(JSONReadError) -> JSONNumberText {
        var number = JSONNumberText(start: start, end: numberEnd(from: start))
        let end = number.end
        var offset = start
        @inline(__always) func digit(at offset: Int) -> UInt8? {
            guard offset < end else { return nil }
            let digit = bytes[offset] &- UInt8(ascii: "0")
            return digit < 10 ? digit : nil
        }
        if bytes[offset] == UInt8(ascii: "-") {
            number.isNegative = true
            offset += 1
        }
        guard let first = digit(at: offset) else {
            throw JSONReadError(.syntax("a number needs a digit after '-'"), at: offset)
        }
        offset += 1
        if first == 0 {
            if digit(at: offset) != nil {
                throw JSONReadError(.syntax("a number such as 01, with a leading zero, is not valid JSON"), at: offset)
            }
        } else {
            number.append(digit: first, inFraction: false)
            while let next = digit(at: offset) {
                number.append(digit: next, inFraction: false)
                offset += 1
            }
        }
        if offset < end && bytes[offset] == UInt8(ascii: ".") {
            number.isInteger = false
            offset += 1
            guard digit(at: offset) != nil else {
                throw JSONReadError(.syntax("a number needs a digit after its '.' (such as 1.0, not 1.)"), at: offset)
            }
            while let next = digit(at: offset) {
                number.append(digit: next, inFraction: true)
                offset += 1
            }
        }
        if offset < end && (bytes[offset] | 0x20) == UInt8(ascii: "e") {
            number.isInteger = false
            offset += 1
            var isNegativeExponent = false
            if offset < end && (bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-")) {
                isNegativeExponent = bytes[offset] == UInt8(ascii: "-")
                offset += 1
            }
            guard digit(at: offset) != nil else {
                throw JSONReadError(
                    .syntax("a number needs a digit in its exponent (such as 1e5, not 1e)"), at: offset)
            }
            var exponent = 0
            while let next = digit(at: offset) {
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(next) }
                offset += 1
            }
            number.exponent += isNegativeExponent ? -exponent : exponent
        }
        guard offset == end else { throw unexpected(at: offset, "in a number") }
        return number
    }
}
