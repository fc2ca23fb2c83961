/// Why a `JSONPullReader` stopped: what is wrong, and where, as a byte offset.
package struct JSONReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    package enum Kind: Equatable, Sendable {
        /// The bytes ended where more was needed.
        case unexpectedEnd
        /// Anything else that breaks JSON's grammar, as a phrase: "expected ':' after an object key", …
        case syntax(String)
        /// The first byte of an invalid UTF-8 sequence in a string that is read.
        case invalidUTF8
        /// Arrays and objects nested deeper than `limit`, counted together.
        case tooDeep(limit: Int)
        /// The value is of another kind than the one asked for.
        case typeMismatch(expected: JSONValueKind, found: JSONValueKind)
        /// A well-formed number that the type asked for cannot hold (`300` as a `UInt8`, `0.5` as an `Int`,
        /// `1e400` as a `Double`); the type's name.
        case numberNotRepresentable(type: String)
    }

    /// What is wrong.
    package let kind: Kind
    /// Where, as a 0-based offset from the first byte of the bytes read (a byte order mark included).
    package let byteOffset: Int

    /// An error of `kind` at `byteOffset`.
    package init(_ kind: Kind, at byteOffset: Int) {
        self.kind = kind
        self.byteOffset = byteOffset
    }

    /// One phrase, such as `expected ',' or ']' after an array element at byte 12`.
    package var description: String {
        let place = "at byte \(byteOffset)"
        switch kind {
        case .unexpectedEnd: return "unexpected end of the JSON text \(place)"
        case .syntax(let message): return "\(message) \(place)"
        case .invalidUTF8: return "invalid UTF-8 \(place)"
        case .tooDeep(let limit): return "JSON nested deeper than \(limit) levels \(place)"
        case .typeMismatch(let expected, let found): return "expected \(expected) but found \(found) \(place)"
        case .numberNotRepresentable(let type): return "number not representable as \(type) \(place)"
        }
    }
}

/// The kind of a JSON value, from its first byte.
package enum JSONValueKind: Equatable, Sendable, CustomStringConvertible {
    /// `{`.
    case object
    /// `[`.
    case array
    /// `"`.
    case string
    /// `-` or a digit.
    case number
    /// `t` or `f`.
    case bool
    /// `n`.
    case null

    /// The kind with an article: "an object", "a number", "null".
    package var description: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}
