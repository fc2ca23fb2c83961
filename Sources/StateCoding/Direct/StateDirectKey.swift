import StateJSON

/// An object's key as a ``StateDirectReader`` read it: generated code compares it with each declared key.
public struct StateDirectKey {
    /// The key's bytes between its quotes.
    @usableFromInline let raw: UnsafeRawBufferPointer
    /// Whether the key's text is `raw`, all ASCII (no escape).
    @usableFromInline let isPlain: Bool
    /// Whether `raw` holds an escape.
    let hasEscape: Bool

    @usableFromInline
    init(key: JSONKey) {
        raw = key.rawBytes
        isPlain = key.isPlain
        hasEscape = key.hasEscape
    }

    /// The key as the JSON reader gave it.
    var key: JSONKey { JSONKey(rawBytes: raw, hasEscape: hasEscape, hasNonASCII: !isPlain && !hasEscape) }

    /// Whether the key is `name`, compared as `JSONDecoder` compares keys (as Swift strings, after unescaping):
    /// byte for byte when both are plain ASCII, here in the caller's code since most comparisons are of such keys.
    @inlinable
    public func matches(_ name: StaticString) -> Bool {
        if isPlain, name.hasPointerRepresentation, name.isASCII {
            let count = name.utf8CodeUnitCount
            guard count == raw.count else { return false }
            let start = name.utf8Start
            var offset = 0
            while offset < count {
                guard raw[offset] == start[offset] else { return false }
                offset += 1
            }
            return true
        }
        return matchesAsText(name)
    }

    /// ``matches(_:)`` for a key or a name that is not plain ASCII: as Swift strings.
    @usableFromInline
    func matchesAsText(_ name: StaticString) -> Bool {
        key.matches(name)
    }

    /// The key's text, unescaped.
    public var text: String { key.string }
}
