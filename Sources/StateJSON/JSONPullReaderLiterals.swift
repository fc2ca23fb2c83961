extension JSONPullReader {
    /// Reads `true` or `false`.
    ///
    /// When it throws, the reader is still where the value starts (after whitespace).
    @usableFromInline
    package mutating func readBool() throws(JSONReadError) -> Bool {
        let first = try expectValue(.bool)
        let isTrue = first == UInt8(ascii: "t")
        index = try literalEnd(isTrue ? "true" : "false", at: index)
        return isTrue
    }

    /// Reads `null` and returns true if it is next (after whitespace); returns false, reading nothing, if another
    /// value is.
    @usableFromInline
    package mutating func readNull() throws(JSONReadError) -> Bool {
        guard try valueStart() == UInt8(ascii: "n") else { return false }
        index = try literalEnd("null", at: index)
        return true
    }

    /// The offset after `literal` (`true`, `false` or `null`), which must be at `start`.
    func literalEnd(_ literal: StaticString, at start: Int) throws(JSONReadError) -> Int {
        let count = literal.utf8CodeUnitCount
        for offset in 0..<count {
            guard start + offset < bytes.count else { throw JSONReadError(.unexpectedEnd, at: bytes.count) }
            guard bytes[start + offset] == literal.utf8Start[offset] else {
                throw unexpected(at: start + offset, "in \(literal)")
            }
        }
        return start + count
    }
}
