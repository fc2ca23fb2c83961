extension JSONPullReader {
    /// Reads the `{` that opens an object (after whitespace); then `nextKey()` reads its members.
    @usableFromInline
    package mutating func beginObject() throws(JSONReadError) {
        _ = try expectValue(.object)
        try open()
    }

    /// Reads the `[` that opens an array (after whitespace); then `nextElement()` reads its elements.
    package mutating func beginArray() throws(JSONReadError) {
        _ = try expectValue(.array)
        try open()
    }

    /// The next key of the object being read, with the `:` after it, so that the member's value is next; nil at
    /// the `}` that closes the object, which it reads. Between members it reads the `,`; one trailing comma before
    /// `}` is allowed, as JSONDecoder allows it. The key is checked as `readString()` checks a string.
    @usableFromInline
    package mutating func nextKey() throws(JSONReadError) -> JSONKey? {
        skipWhitespace()
        guard index < bytes.count else { throw JSONReadError(.unexpectedEnd, at: index) }
        if atContainerStart {
            atContainerStart = false
            if bytes[index] == UInt8(ascii: "}") {
                try close()
                return nil
            }
        } else {
            switch bytes[index] {
            case UInt8(ascii: "}"):
                try close()
                return nil
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                guard index < bytes.count else { throw JSONReadError(.unexpectedEnd, at: index) }
                if bytes[index] == UInt8(ascii: "}") {
                    try close()
                    return nil
                }
            default:
                throw unexpected("after an object member (expected ',' or '}')")
            }
        }
        guard bytes[index] == UInt8(ascii: "\"") else { throw unexpected("where an object key starts") }
        let key = try readKey()
        skipWhitespace()
        guard index < bytes.count else { throw JSONReadError(.unexpectedEnd, at: index) }
        guard bytes[index] == UInt8(ascii: ":") else { throw unexpected("after an object key (expected ':')") }
        index += 1
        return key
    }

    /// Whether the array being read has another element, which is then next; false at the `]` that closes the
    /// array, which it reads. Between elements it reads the `,`; one trailing comma before `]` is allowed, as
    /// JSONDecoder allows it.
    package mutating func nextElement() throws(JSONReadError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw JSONReadError(.unexpectedEnd, at: index) }
        if atContainerStart {
            atContainerStart = false
            guard bytes[index] == UInt8(ascii: "]") else { return true }
            try close()
            return false
        }
        switch bytes[index] {
        case UInt8(ascii: "]"):
            try close()
            return false
        case UInt8(ascii: ","):
            index += 1
            skipWhitespace()
            guard index < bytes.count else { throw JSONReadError(.unexpectedEnd, at: index) }
            guard bytes[index] == UInt8(ascii: "]") else { return true }
            try close()
            return false
        default:
            throw unexpected("after an array element (expected ',' or ']')")
        }
    }

    /// Reads the `{` or `[` at `index`, one level deeper.
    @inline(__always)
    private mutating func open() throws(JSONReadError) {
        guard depth < Self.depthLimit else { throw JSONReadError(.tooDeep(limit: Self.depthLimit), at: index) }
        depth += 1
        index += 1
        atContainerStart = true
    }

    /// Reads the `}` or `]` at `index`, one level up.
    @inline(__always)
    private mutating func close() throws(JSONReadError) {
        guard depth > 0 else { throw unexpected("outside any array or object") }
        depth -= 1
        index += 1
        atContainerStart = false
    }
}
