/// An object's key as `JSONPullReader.nextKey()` read it (and checked it): its bytes in the document, and what its
/// text is made of.
///
/// Keys are compared as JSONDecoder compares them, as Swift strings after unescaping: `"\u0061"` is the key `a`,
/// and canonically equivalent keys are one key (`"é"` and `"e\u0301"`, `"\u212A"` KELVIN SIGN and `"K"`).
@usableFromInline
package struct JSONKey {
    /// The key's bytes between its quotes, in the document.
    package let rawBytes: UnsafeRawBufferPointer
    /// Whether `rawBytes` holds an escape: the key's text is then made by resolving them.
    package let hasEscape: Bool
    /// Whether the key's text is `rawBytes`, all ASCII (no escape, no byte outside ASCII).
    package let isPlain: Bool

    /// A key of `rawBytes`, checked as a string is, which holds an escape or a byte outside ASCII as said.
    ///
    /// The key holds no text: a key is compared as bytes far more often than its text is asked for, and a `String`
    /// in it made every key's copy and destruction count references.
    package init(rawBytes: UnsafeRawBufferPointer, hasEscape: Bool, hasNonASCII: Bool) {
        self.rawBytes = rawBytes
        self.hasEscape = hasEscape
        isPlain = !hasEscape && !hasNonASCII
    }

    /// The key's text, with its escapes resolved.
    package var string: String {
        hasEscape ? JSONPullReader.unescaped(rawBytes) : String(decoding: rawBytes, as: UTF8.self)
    }

    /// Whether the key is `name` as JSONDecoder compares keys: a comparison of bytes when both are plain ASCII,
    /// else of Swift strings.
    @inline(__always)
    package func matches(_ name: StaticString) -> Bool {
        guard name.hasPointerRepresentation else { return string == name.description }
        let count = name.utf8CodeUnitCount
        if isPlain && count == rawBytes.count {
            var offset = 0
            let start = name.utf8Start
            while offset < count && rawBytes[offset] == start[offset] { offset += 1 }
            if offset == count { return true }
        }
        // A plain key equals an ASCII name only byte for byte; otherwise the strings decide.
        if isPlain && name.isASCII { return false }
        return string == name.description
    }

    /// Whether the key is `name` as JSONDecoder compares keys (Swift strings).
    package func matches(_ name: String) -> Bool {
        if isPlain {
            var name = name
            let sameBytes = name.withUTF8 { $0.elementsEqual(rawBytes) }
            if sameBytes { return true }
            if name.utf8.allSatisfy({ $0 < 0x80 }) { return false }
        }
        return string == name
    }
}
