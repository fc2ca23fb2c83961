extension JSONPullReader {
    /// Skips the next value (after whitespace), with everything nested in it, and returns the range of its bytes,
    /// from its first byte to its last: the exact JSON text of an unknown field, for instance.
    ///
    /// By default it checks what JSONDecoder checks of a value that nothing decodes: the structure (brackets,
    /// commas, colons, a trailing comma, nesting depth), `true`, `false` and `null`, the end of each string and
    /// the extent of each number, and no more (see the comment at the top of JSONPullReader.swift); so a decoder
    /// that skips what a Decodable type would not read accepts and refuses what JSONDecoder does. With
    /// `checkingValues`, every string (keys included) and number in it is also checked as a read one is (UTF-8,
    /// escapes, control characters; RFC 8259's number grammar, not a type's range): what decoding the value into
    /// a type that reads every member would check of its syntax.
    package mutating func skipValue(checkingValues: Bool = false) throws(JSONReadError) -> Range<Int> {
        skipWhitespace()
        let start = index
        var nesting = Nesting()
        var offset = start
        nextValue: while true {
            // A value starts at `offset`, after whitespace.
            guard offset < bytes.count else { throw JSONReadError(.unexpectedEnd, at: offset) }
            switch bytes[offset] {
            case UInt8(ascii: "\""):
                offset = checkingValues ? try checkedString(from: offset).end + 1 : try stringEnd(from: offset)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[offset] == UInt8(ascii: "{")
                guard depth + nesting.count < Self.depthLimit else {
                    throw JSONReadError(.tooDeep(limit: Self.depthLimit), at: offset)
                }
                offset = whitespaceEnd(from: offset + 1)
                guard offset < bytes.count else { throw JSONReadError(.unexpectedEnd, at: offset) }
                if bytes[offset] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    offset += 1
                } else {
                    nesting.push(isObject: isObject)
                    if isObject { offset = try memberValueStart(keyAt: offset, checking: checkingValues) }
                    continue nextValue
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                offset = checkingValues ? try checkedNumber(from: offset).end : numberEnd(from: offset)
            case UInt8(ascii: "t"):
                offset = try literalEnd("true", at: offset)
            case UInt8(ascii: "f"):
                offset = try literalEnd("false", at: offset)
            case UInt8(ascii: "n"):
                offset = try literalEnd("null", at: offset)
            default:
                throw unexpected(at: offset, "where a value starts")
            }
            // A value ended at `offset`: close what it ends, until another value starts.
            while nesting.count > 0 {
                let isObject = nesting.innermostIsObject
                offset = whitespaceEnd(from: offset)
                guard offset < bytes.count else { throw JSONReadError(.unexpectedEnd, at: offset) }
                let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if bytes[offset] == UInt8(ascii: ",") {
                    offset = whitespaceEnd(from: offset + 1)
                    guard offset < bytes.count else { throw JSONReadError(.unexpectedEnd, at: offset) }
                    if bytes[offset] != closer {  // else a trailing comma, as JSONDecoder allows
                        if isObject { offset = try memberValueStart(keyAt: offset, checking: checkingValues) }
                        continue nextValue
                    }
                } else if bytes[offset] != closer {
                    let context =
                        isObject
                        ? "after an object member (expected ',' or '}')"
                        : "after an array element (expected ',' or ']')"
                    throw unexpected(at: offset, context)
                }
                nesting.pop()
                offset += 1
            }
            index = offset
            return start..<offset
        }
    }

    /// Skips the object key at `offset` (which must be a string, checked if `checking`), whitespace and the colon
    /// after it; returns the offset of the member's value, after whitespace.
    private func memberValueStart(keyAt offset: Int, checking: Bool) throws(JSONReadError) -> Int {
        guard bytes[offset] == UInt8(ascii: "\"") else { throw unexpected(at: offset, "where an object key starts") }
        let keyEnd = checking ? try checkedString(from: offset).end + 1 : try stringEnd(from: offset)
        let colon = whitespaceEnd(from: keyEnd)
        guard colon < bytes.count else { throw JSONReadError(.unexpectedEnd, at: colon) }
        guard bytes[colon] == UInt8(ascii: ":") else {
            throw unexpected(at: colon, "after an object key (expected ':')")
        }
        return whitespaceEnd(from: colon + 1)
    }

    /// The offset after the closing quote of the string whose opening quote is at `quote`, found as JSONDecoder's
    /// scanner finds it: a backslash escapes the next byte, whatever it is, and `\u` needs four more bytes, none
    /// of them a quote. Nothing else is checked.
    func stringEnd(from quote: Int) throws(JSONReadError) -> Int {
        var offset = quote + 1
        let count = bytes.count
        while true {
            // Eight bytes at a time while none is a quote or a backslash.
            while offset &+ 8 <= count {
                let special = Self.quotesAndBackslashes(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                if special != 0 {
                    offset += special.trailingZeroBitCount >> 3
                    break
                }
                offset += 8
            }
            guard offset < count else { throw JSONReadError(.unexpectedEnd, at: count) }
            switch bytes[offset] {
            case UInt8(ascii: "\""):
                return offset + 1
            case UInt8(ascii: "\\"):
                guard offset + 1 < count else { throw JSONReadError(.unexpectedEnd, at: count) }
                guard bytes[offset + 1] == UInt8(ascii: "u") else {
                    offset += 2
                    continue
                }
                guard offset + 6 <= count else { throw JSONReadError(.unexpectedEnd, at: count) }
                for digit in offset + 2..<offset + 6 where bytes[digit] == UInt8(ascii: "\"") {
                    throw JSONReadError(.syntax("a \\u escape needs four hexadecimal digits"), at: offset)
                }
                offset += 6
            default:
                offset += 1
            }
        }
    }

    /// The offset of the first byte at or after `offset` that is not whitespace.
    @inline(__always)
    func whitespaceEnd(from offset: Int) -> Int {
        var offset = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            guard byte <= 0x20, (UInt64(1) << byte) & 0x1_0000_2600 != 0 else { break }
            offset += 1
        }
        return offset
    }

    /// A mask with the top bit set in (at least) the first byte of `word` (in memory order) that is a quote or a
    /// backslash, and zero when there is none.
    @inline(__always)
    static func quotesAndBackslashes(_ word: UInt64) -> UInt64 {
        let word = UInt64(littleEndian: word)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        return ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes) & 0x8080_8080_8080_8080
    }
}

/// The arrays and objects open inside a value being skipped, innermost last, one bit each (set for an object):
/// at most `JSONPullReader.depthLimit` of them, without an allocation.
private struct Nesting {
    /// The bits, 64 levels a word.
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// How many are open.
    private(set) var count = 0

    /// Opens an object, or an array; the caller keeps `count` below 512.
    @inline(__always)
    mutating func push(isObject: Bool) {
        let bit = UInt64(1) << (count & 63)
        let byteOffset = (count >> 6) * 8
        withUnsafeMutableBytes(of: &words) { raw in
            let word = raw.load(fromByteOffset: byteOffset, as: UInt64.self)
            raw.storeBytes(of: isObject ? word | bit : word & ~bit, toByteOffset: byteOffset, as: UInt64.self)
        }
        count += 1
    }

    /// Closes the innermost one.
    @inline(__always)
    mutating func pop() { count -= 1 }

    /// Whether the innermost one is an object.
    var innermostIsObject: Bool {
        let level = count - 1
        return withUnsafeBytes(of: words) { raw in
            raw.load(fromByteOffset: (level >> 6) * 8, as: UInt64.self) & (UInt64(1) << (level & 63)) != 0
        }
    }
}
