extension JSONPullReader {
    /// Reads a string value, checked as JSONDecoder checks a string it decodes: strict UTF-8, no unescaped
    /// control character, valid escapes, surrogate escapes in pairs.
    ///
    /// When it throws, the reader is still where the value starts (after whitespace), so `skipValue()` can skip it.
    @usableFromInline
    package mutating func readString() throws(JSONReadError) -> String {
        _ = try expectValue(.string)
        let text = try checkedString(from: index)
        index = text.end + 1
        return string(of: text)
    }

    /// Reads a string value as `readString()` does, except that one without an escape of more than 15 bytes is
    /// looked up in `shared` (made on the first such string): an equal string read lately shares its storage.
    @usableFromInline
    package mutating func readString(sharing shared: inout SharedStrings?) throws(JSONReadError) -> String {
        _ = try expectValue(.string)
        let text = try checkedString(from: index)
        index = text.end + 1
        guard !text.hasEscape, text.end - text.start > SharedStrings.smallLimit else { return string(of: text) }
        let strings = shared ?? SharedStrings()
        shared = strings
        return strings.string(of: UnsafeRawBufferPointer(rebasing: bytes[text.start..<text.end]))
    }

    /// Reads a string value, checked as `readString()` checks it, without making a `String` of one that holds no
    /// escape: then its bytes in the document (valid UTF-8) and no text; else no bytes and its text.
    @usableFromInline
    package mutating func readStringBytes() throws(JSONReadError) -> (bytes: UnsafeRawBufferPointer?, text: String?) {
        _ = try expectValue(.string)
        let text = try checkedString(from: index)
        index = text.end + 1
        guard text.hasEscape else { return (UnsafeRawBufferPointer(rebasing: bytes[text.start..<text.end]), nil) }
        return (nil, string(of: text))
    }

    /// Reads the object key whose opening quote is at `index`, checked as `readString()` checks a string.
    ///
    /// Inlined into ``nextKey()``, with the common case of ``checkedString(from:)``: a replay reads three keys per
    /// journal record, and calls between them copy the reader each time.
    @inline(__always)
    mutating func readKey() throws(JSONReadError) -> JSONKey {
        let text = try checkedString(from: index)
        index = text.end + 1
        let raw = UnsafeRawBufferPointer(rebasing: bytes[text.start..<text.end])
        return JSONKey(rawBytes: raw, hasEscape: text.hasEscape, hasNonASCII: text.hasNonASCII)
    }

    /// A checked string's text in the document, and what checking it found.
    struct CheckedString {
        /// The offset of its first byte, after the opening quote.
        var start: Int
        /// The offset of its closing quote.
        var end: Int
        /// Whether it holds an escape.
        var hasEscape = false
        /// Whether it holds a byte outside ASCII.
        var hasNonASCII = false

        /// Whether its text is its bytes, all ASCII.
        var isPlain: Bool { !hasEscape && !hasNonASCII }
    }

    /// Checks the string whose opening quote is at `quote` as a read string is checked.
    ///
    /// Inlined for its common case, a string of printable ASCII with no escape, found eight bytes at a time; a
    /// string with anything else is checked by ``checkedString(from:continuingAt:)``.
    @inline(__always)
    func checkedString(from quote: Int) throws(JSONReadError) -> CheckedString {
        var offset = quote + 1
        let count = bytes.count
        while offset &+ 8 <= count {
            let special = Self.specialBytes(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            if special != 0 {
                offset += special.trailingZeroBitCount >> 3
                if bytes[offset] == UInt8(ascii: "\"") { return CheckedString(start: quote + 1, end: offset) }
                break
            }
            offset += 8
        }
        return try checkedString(from: quote, continuingAt: offset)
    }

    /// ``checkedString(from:)`` from `offset`, where the string's bytes before are printable ASCII.
    @inline(never)
    func checkedString(from quote: Int, continuingAt offset: Int) throws(JSONReadError) -> CheckedString {
        var text = CheckedString(start: quote + 1, end: quote + 1)
        var offset = offset
        let count = bytes.count
        while true {
            // Eight bytes at a time while none is a quote, a backslash, a control character or non-ASCII.
            while offset &+ 8 <= count {
                let special = Self.specialBytes(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                if special != 0 {
                    offset += special.trailingZeroBitCount >> 3
                    break
                }
                offset += 8
            }
            guard offset < count else { throw JSONReadError(.unexpectedEnd, at: count) }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                text.end = offset
                return text
            }
            if byte == UInt8(ascii: "\\") {
                text.hasEscape = true
                offset = try checkedEscape(at: offset, nonASCII: &text.hasNonASCII)
            } else if byte < 0x20 {
                let code = String(byte, radix: 16, uppercase: true)
                throw JSONReadError(
                    .syntax("unescaped control character U+\(code.count == 1 ? "000" : "00")\(code) in a string"),
                    at: offset)
            } else if byte >= 0x80 {
                let length = utf8Length(at: offset)
                guard length > 0 else { throw JSONReadError(.invalidUTF8, at: offset) }
                text.hasNonASCII = true
                offset += length
            } else {
                offset += 1
            }
        }
    }

    /// Checks the escape whose backslash is at `start`; returns the offset after it (after both escapes of a
    /// surrogate pair).
    private func checkedEscape(at start: Int, nonASCII: inout Bool) throws(JSONReadError) -> Int {
        guard start + 1 < bytes.count else { throw JSONReadError(.unexpectedEnd, at: bytes.count) }
        switch bytes[start + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return start + 2
        case UInt8(ascii: "u"):
            let unit = try hexEscapeValue(at: start + 2)
            if unit >= 0x80 { nonASCII = true }
            switch unit & 0xFC00 {
            case 0xD800:
                let next = start + 6
                guard next + 1 < bytes.count else { throw JSONReadError(.unexpectedEnd, at: bytes.count) }
                guard bytes[next] == UInt8(ascii: "\\"), bytes[next + 1] == UInt8(ascii: "u"),
                    try hexEscapeValue(at: next + 2) & 0xFC00 == 0xDC00
                else { throw JSONReadError(.syntax("unpaired UTF-16 surrogate escape in a string"), at: start) }
                return next + 6
            case 0xDC00:
                throw JSONReadError(.syntax("unpaired UTF-16 surrogate escape in a string"), at: start)
            default:
                return start + 6
            }
        default:
            throw JSONReadError(.syntax("invalid escape in a string"), at: start)
        }
    }

    /// The value of the four hexadecimal digits at `start`, those of a `\u` escape.
    private func hexEscapeValue(at start: Int) throws(JSONReadError) -> UInt32 {
        guard start + 4 <= bytes.count else { throw JSONReadError(.unexpectedEnd, at: bytes.count) }
        var value: UInt32 = 0
        for offset in start..<start + 4 {
            guard let digit = Self.hexDigitValue(bytes[offset]) else {
                throw JSONReadError(.syntax("a \\u escape needs four hexadecimal digits"), at: start - 2)
            }
            value = value << 4 | digit
        }
        return value
    }

    /// The value of the hexadecimal digit `byte`, if it is one.
    @inline(__always)
    private static func hexDigitValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte &- UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte &- UInt8(ascii: "a") &+ 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte &- UInt8(ascii: "A") &+ 10)
        default: nil
        }
    }

    /// The length of the valid UTF-8 sequence starting with the non-ASCII byte at `offset`, or 0 when it is
    /// not one (``UTF8Sequence/length(at:in:count:)``).
    @inline(__always)
    func utf8Length(at offset: Int) -> Int {
        UTF8Sequence.length(at: offset, in: bytes.baseAddress!, count: bytes.count)
    }

    /// The text of a checked string: its bytes, or its bytes with the escapes resolved.
    func string(of text: CheckedString) -> String {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[text.start..<text.end])
        guard text.hasEscape else { return String(decoding: raw, as: UTF8.self) }
        return Self.unescaped(raw)
    }

    /// The text of `raw`, the bytes between the quotes of a checked string that holds an escape, with the escapes
    /// resolved.
    static func unescaped(_ raw: UnsafeRawBufferPointer) -> String {
        // No escape is shorter than the UTF-8 it stands for.
        return String(unsafeUninitializedCapacity: raw.count) { output in
            var written = 0
            var offset = 0
            while offset < raw.count {
                let byte = raw[offset]
                guard byte == UInt8(ascii: "\\") else {
                    output[written] = byte
                    written += 1
                    offset += 1
                    continue
                }
                let escaped = raw[offset + 1]
                offset += 2
                let scalar: UInt32
                switch escaped {
                case UInt8(ascii: "b"): scalar = 0x08
                case UInt8(ascii: "f"): scalar = 0x0C
                case UInt8(ascii: "n"): scalar = 0x0A
                case UInt8(ascii: "r"): scalar = 0x0D
                case UInt8(ascii: "t"): scalar = 0x09
                case UInt8(ascii: "u"):
                    let unit = Self.hexValue(raw, at: offset)
                    offset += 4
                    if unit & 0xFC00 == 0xD800 {
                        scalar = 0x10000 + ((unit - 0xD800) << 10) + (Self.hexValue(raw, at: offset + 2) - 0xDC00)
                        offset += 6
                    } else {
                        scalar = unit
                    }
                default: scalar = UInt32(escaped)  // " \ /
                }
                written += Self.encodeUTF8(scalar, into: output, at: written)
            }
            return written
        }
    }

    /// The value of the four (checked) hexadecimal digits at `offset` of `raw`.
    private static func hexValue(_ raw: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        for index in offset..<offset + 4 { value = value << 4 | (hexDigitValue(raw[index]) ?? 0) }
        return value
    }

    /// Writes `scalar` (a Unicode scalar value) as UTF-8 at `offset` of `output`; returns the number of bytes.
    private static func encodeUTF8(
        _ scalar: UInt32, into output: UnsafeMutableBufferPointer<UInt8>, at offset: Int
    )
        -> Int
    {
        switch scalar {
        case 0..<0x80:
            output[offset] = UInt8(scalar)
            return 1
        case 0x80..<0x800:
            output[offset] = UInt8(0xC0 | scalar >> 6)
            output[offset + 1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case 0x800..<0x10000:
            output[offset] = UInt8(0xE0 | scalar >> 12)
            output[offset + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            output[offset + 2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            output[offset] = UInt8(0xF0 | scalar >> 18 & 0x07)
            output[offset + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            output[offset + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            output[offset + 3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }

    /// A mask with the top bit set in (at least) the first byte of `word` (in memory order) that is a quote, a
    /// backslash, a control character or non-ASCII, and zero when there is none.
    @inline(__always)
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let word = UInt64(littleEndian: word)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let hasQuote = (quotes &- ones) & ~quotes
        let hasBackslash = (backslashes &- ones) & ~backslashes
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl | word) & 0x8080_8080_8080_8080
    }
}
