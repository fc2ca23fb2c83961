// A pull reader of JSON bytes for decoders that read a document in one pass, without JSONDecoder's map of every
// value: the caller asks for what it expects next (an object's next key, a string, an Int64) and the reader checks
// and converts just that. It accepts and refuses what swift-foundation's JSONDecoder (Swift 6.3.1, Linux) accepts
// and refuses for the same reads; the JSONPullReader*Tests suites check it against JSONDecoder on tables and random
// documents.
//
// JSONDecoder works in two steps, and the reader keeps them apart:
//
// - It scans the whole document first, read or not: brackets, commas, colons, nesting (at most 512 arrays and
//   objects, counted together), `true`, `false` and `null` letter by letter, one trailing comma before `]` or `}`
//   (not `[,]` or `[1,,]`), whitespace (space, tab, CR, LF) and a UTF-8 byte order mark at the very start. Of a
//   string it finds the end only: a backslash escapes the next byte, whatever it is, and `\u` needs four more
//   bytes, none of them a quote. Of a number it takes the longest run of digits, `.`, `+`, `-`, `e` and `E` after
//   a `-` or digit. `skipValue()` checks exactly that much.
// - It checks a string or a number when a Decodable type reads it: strict UTF-8 (no overlong form, surrogate or
//   code point beyond U+10FFFF), no control character below U+0020, escapes among `\" \\ \/ \b \f \n \r \t \uXXXX`,
//   a high surrogate escape followed by a low one and no low one alone (`\u0000` and noncharacters are fine); a
//   number by RFC 8259's grammar (`01`, `1.`, `-`, `1e`, `.5`, `+1` are refused). Reading a string or a number
//   checks that much, and so do an object's keys when `nextKey()` reads them (JSONDecoder reads every key of an
//   object it decodes, none of one it skips).
//
// Conversions are JSONDecoder's, measured on this toolchain:
//
// - Double and Float: strtod/strtof in the C locale, so the bits are the same; a result that overflows to
//   infinity (1e400) is refused, and so is one that underflows to zero from a number with a non-zero digit before
//   its exponent (1e-400; 0e-400 is 0). `-0` is -0.0.
// - Integers: plain digits convert exactly (overflow refused). A number with a fraction or an exponent, or out of
//   the type's range, goes through a Double: refused unless the Double is an integer the type holds (1.0, 1e2,
//   1E+2, -0.0 and 1.0000000000000001 are 1, 100, 100, 0 and 1; 0.5 and 1e20 as Int64 are refused; 1e-400 is 0).
//   Below 2^53 that is the value; from 2^53 on, the number is read again as a Foundation Decimal whose digits are
//   gathered in a UInt64, the fraction truncated: 9007199254740993.5 is 9007199254740993, and
//   -9223372036854775808.0 and 1e20 as an Int128 are refused although -9223372036854775808 and
//   170141183460469231731687303715884105727 are read.
//
// Where the reader differs from JSONDecoder:
//
// - A number read as an integer that takes that Decimal path and is too long for a Decimal (say, 320 digits with
//   an exponent bringing it to 1e19): JSONDecoder stops the process on a failed precondition; the reader refuses it.
// - Bytes that start with FE FF or FF FE, or with NUL among the first four: JSONDecoder reads them as UTF-16 or
//   UTF-32, and reads such a document if it is valid JSON in that encoding. The reader reads UTF-8 only and
//   refuses them, since they are never valid UTF-8 JSON, with one exception: a root string with a NUL in its first
//   bytes that nothing reads, which `skipValue()` skips where JSONDecoder would transcode.
//
// The reader knows nothing of duplicate keys: JSONDecoder keeps the first value of a key (compared as Swift
// strings, see `JSONKey.matches(_:)`) and, for a Decodable struct, never reads the others, so a decoder skips a key
// it has seen already with `skipValue()`; a `[String: T]` dictionary reads every value, duplicates included.

/// Reads one JSON document from UTF-8 bytes, value by value, as the caller asks, checking and converting each value
/// as `JSONDecoder` does: no copy of the document and no tree of values. See the comment at the top of this file
/// for what is checked when.
///
/// The caller keeps the bytes alive while the reader, and any `JSONKey` it returned, is used. Every method throws a
/// `JSONReadError` on bytes that are not what it expects; none traps, whatever the bytes.
///
/// ```swift
/// var reader = JSONPullReader(bytes: raw)
/// try reader.beginObject()
/// while let key = try reader.nextKey() {
///     if key.matches("name") { name = try reader.readString() } else { _ = try reader.skipValue() }
/// }
/// try reader.finish()
/// ```
@usableFromInline
package struct JSONPullReader {
    /// The deepest nesting of arrays and objects, counted together, that JSONDecoder reads.
    package static let depthLimit = 512

    /// The document.
    package let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to look at.
    var index: Int
    /// How many arrays and objects are open.
    var depth = 0
    /// Whether the last call opened an array or an object, so that the next member read is its first (no comma
    /// before it, and no trailing comma allowed).
    var atContainerStart = false

    /// A reader of `bytes`, a whole JSON document; a UTF-8 byte order mark at the start is skipped.
    package init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        let hasMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        index = hasMark ? 3 : 0
    }

    /// The offset of the next byte the reader looks at, from the first byte (a byte order mark included).
    package var byteOffset: Int { index }

    /// How many arrays and objects are open.
    package var nestingDepth: Int { depth }

    /// Moves the read to `offset`, with `depth` arrays and objects open, between two members or elements (not at
    /// a container's start): for a second reader of an array that starts at an element's `,`, and for the first
    /// one to continue after the part the second read. The caller knows the position is such a place.
    package mutating func reposition(at offset: Int, depth: Int) {
        index = offset
        self.depth = depth
        atContainerStart = false
    }

    /// Checks that only whitespace follows the value read, and that every array and object read was closed.
    @usableFromInline
    package mutating func finish() throws(JSONReadError) {
        skipWhitespace()
        if depth > 0 {
            guard index < bytes.count else { throw JSONReadError(.unexpectedEnd, at: index) }
            throw JSONReadError(.syntax("the document's arrays and objects are not all read"), at: index)
        }
        if index < bytes.count { throw unexpected("after the JSON value") }
    }

    /// The kind of the next value, after whitespace, which it skips.
    package mutating func peekKind() throws(JSONReadError) -> JSONValueKind {
        let byte = try valueStart()
        guard let kind = Self.kind(of: byte) else { throw unexpected("where a value starts") }
        return kind
    }

    // MARK: Helpers of the other files

    /// The kind of value that starts with `byte`, if one does.
    @inline(__always)
    static func kind(of byte: UInt8) -> JSONValueKind? {
        switch byte {
        case UInt8(ascii: "{"): .object
        case UInt8(ascii: "["): .array
        case UInt8(ascii: "\""): .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): .bool
        case UInt8(ascii: "n"): .null
        default: nil
        }
    }

    /// Skips whitespace (space, tab, LF, CR).
    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            let byte = bytes[index]
            guard byte <= 0x20, (UInt64(1) << byte) & 0x1_0000_2600 != 0 else { return }
            index += 1
        }
    }

    /// Skips whitespace and returns the byte after it, where a value starts; throws at the end of the bytes.
    @inline(__always)
    mutating func valueStart() throws(JSONReadError) -> UInt8 {
        skipWhitespace()
        guard index < bytes.count else { throw JSONReadError(.unexpectedEnd, at: index) }
        return bytes[index]
    }

    /// Skips whitespace and checks that the next value is of `kind`; returns its first byte.
    @inline(__always)
    mutating func expectValue(_ kind: JSONValueKind) throws(JSONReadError) -> UInt8 {
        let byte = try valueStart()
        guard let found = Self.kind(of: byte) else { throw unexpected("where a value starts") }
        guard found == kind else { throw JSONReadError(.typeMismatch(expected: kind, found: found), at: index) }
        return byte
    }

    /// The error for the byte at `index`, which cannot be there (`context`: "after an object key", …).
    func unexpected(_ context: String) -> JSONReadError {
        unexpected(at: index, context)
    }

    /// The error for the byte at `offset`, which cannot be there.
    func unexpected(at offset: Int, _ context: String) -> JSONReadError {
        guard offset < bytes.count else { return JSONReadError(.unexpectedEnd, at: offset) }
        let byte = bytes[offset]
        let shown =
            byte >= 0x21 && byte < 0x7F
            ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
        return JSONReadError(.syntax("unexpected \(shown) \(context)"), at: offset)
    }
}
