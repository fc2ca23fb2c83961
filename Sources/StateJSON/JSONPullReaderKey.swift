/// An object's key as `JSONPullReader.nextKey()` read it (and checked it): its bytes in the document, and its
/// text when that is not those bytes.
///
/// Keys are compared as JSONDecoder compares them, as Swift strings after unescaping: `"\u0061"` is the key `a`,
/// and canonically equivalent keys are one key (`"é"` and `"e\u0301"`, `"\u212A"` KELVIN SIGN and `"K"`).
package struct JSONKey {
    /// The key's bytes between its quotes, in the document.
    package let rawBytes: UnsafeRawBufferPointer
    /// The key's text when it holds an escape or a byte outside ASCII; nil for a plain ASCII key, whose text is
    /// `rawBytes`.
    package let unescaped: String?

    /// A key of `rawBytes`, whose text is `unescaped` (nil when it is `rawBytes`, printable ASCII).
    init(rawBytes: UnsafeRawBufferPointer, unescaped: String?) {
        self.rawBytes = rawBytes
        self.unescaped = unescaped
    }

    /// The key's text.
    package var string: String { unescaped ?? String(decoding: rawBytes, as: UTF8.self) }

    /// Whether the key is `name` as JSONDecoder compares keys: a comparison of bytes when both are plain ASCII,
    /// else of Swift strings.
    @inline(__always)
    package func matches(_ name: StaticString) -> Bool {
        guard name.hasPointerRepresentation else { return string == name.description }
        let count = name.utf8CodeUnitCount
        if unescaped == nil && count == rawBytes.count {
            var offset = 0
            let start = name.utf8Start
            while offset < count && rawBytes[offset] == start[offset] { offset += 1 }
            if offset == count { return true }
        }
        // A plain key equals an ASCII name only byte for byte; otherwise the strings decide.
        if unescaped == nil && name.isASCII { return false }
        return string == name.description
    }

    /// Whether the key is `name` as JSONDecoder compares keys (Swift strings).
    package func matches(_ name: String) -> Bool {
        if unescaped == nil {
            var name = name
            let sameBytes = name.withUTF8 { $0.elementsEqual(rawBytes) }
            if sameBytes { return true }
            if name.utf8.allSatisfy({ $0 < 0x80 }) { return false }
        }
        return string == name
    }
}
