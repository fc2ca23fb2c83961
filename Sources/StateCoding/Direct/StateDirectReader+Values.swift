import FoundationEssentials
import StateJSON

// The reads a conformance of a value type calls: each converts and checks as `JSONDecoder` does for that type.

extension StateDirectReader {
    /// Reads a string. One of more than 15 bytes without an escape that equals one read shortly before shares its
    /// storage (a table of the strings read lately, made on the first such string).
    @inlinable
    public mutating func readString() throws -> String {
        try json.readString(sharing: &recentStrings)
    }

    /// Reads a string and hands its UTF-8 to `body`: the bytes in the document when the string holds no escape
    /// (no `String` made: an id parsed from its text, say), else the unescaped text's.
    @inlinable
    public mutating func readString<Result>(utf8 body: (UnsafeBufferPointer<UInt8>) throws -> Result) throws -> Result {
        let read = try json.readStringBytes()
        if let bytes = read.bytes { return try body(bytes.assumingMemoryBound(to: UInt8.self)) }
        var text = read.text ?? ""
        return try text.withUTF8(body)
    }

    /// Reads `true` or `false`.
    @inlinable
    public mutating func readBool() throws -> Bool {
        try json.readBool()
    }

    /// Reads `null` and returns true if it is next; returns false, reading nothing, if another value is.
    @inlinable
    public mutating func readNull() throws -> Bool {
        try json.readNull()
    }

    /// Reads a number as `Integer`: refused when the type cannot hold it, as `JSONDecoder` refuses it.
    public mutating func readInteger<Integer: FixedWidthInteger>(_ type: Integer.Type = Integer.self) throws -> Integer
    {
        try json.readInteger(type)
    }

    /// Reads a number as a `Double`.
    public mutating func readDouble() throws -> Double {
        try json.readDouble()
    }

    /// Reads a number as a `Float`.
    public mutating func readFloat() throws -> Float {
        try json.readFloat()
    }

    /// Reads a date as the load's date strategy writes it.
    public mutating func readDate() throws -> Date {
        switch dateCoding {
        case .iso8601:
            let text = try json.readString()
            guard let date = ISO8601Timestamp.date(from: text) else {
                throw refusal("\"\(text)\" is not an ISO 8601 date-time")
            }
            return date
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try json.readDouble())
        case .deferredToDate:
            return Date(timeIntervalSinceReferenceDate: try json.readDouble())
        }
    }

    /// Reads an array whose elements `readElement` reads in turn, with the path marking an element.
    @inlinable
    public mutating func readArray(_ readElement: (inout StateDirectReader) throws -> Void) throws {
        try beginArray()
        path.append(.element)
        defer { path.removeLast() }
        while try nextElement() {
            try readElement(&self)
        }
    }

    /// Reads the `[` that opens an array.
    @usableFromInline
    mutating func beginArray() throws {
        try json.beginArray()
    }

    /// Whether the array being read has another element, which is then next.
    @usableFromInline
    mutating func nextElement() throws -> Bool {
        if json.byteOffset >= nextRelease { releasePassedBytes() }
        return try json.nextElement()
    }

    /// Reads any value as a `JSONValue`, exactly as `JSONValue`'s `init(from:)` would: strings, literals and plain
    /// integers here, any other number, array or object through `JSONDecoder` on its bytes (rare: an unknown
    /// field that holds one).
    mutating func readJSONValue() throws -> JSONValue {
        switch try json.peekKind() {
        case .string: return .string(try json.readString())
        case .bool: return .bool(try json.readBool())
        case .null:
            _ = try json.readNull()
            return .null
        case .number:
            let range = try json.skipValue(checkingValues: true)
            if let integer = Self.plainInteger(json.bytes[range]) { return .integer(integer) }
            return try decodeJSONValue(range)
        case .array, .object:
            let range = try json.skipValue(checkingValues: true)
            return try decodeJSONValue(range)
        }
    }

    /// The value of a number written as plain digits (with a `-`) that fits in `Int64`, not `-0` (a `Double`
    /// zero to `JSONValue`); nil for any other spelling.
    static func plainInteger(_ text: Slice<UnsafeRawBufferPointer>) -> Int64? {
        var digits = text[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        if digits.count > 1, digits.first == UInt8(ascii: "0") { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        if negative {
            if value == 0 { return nil }
            value = -value
        }
        return value
    }

    /// The value whose bytes are `range`, decoded by `JSONDecoder` as `JSONValue`; refused when it holds a
    /// duplicate key (the `Codable` path refuses the file).
    private func decodeJSONValue(_ range: Range<Int>) throws -> JSONValue {
        let data = Data(json.bytes[range])
        if !JSONDefectScanner.duplicateKeys(in: data).isEmpty { throw refusal("duplicate key in an unknown field") }
        return try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// Skips the next value as `JSONDecoder` skips one nothing reads (the structure checked, not the strings and
    /// numbers), duplicate keys not looked for.
    package mutating func skipValue() throws {
        _ = try json.skipValue()
    }

    /// Skips a value as `JSONDecoder` skips one nothing reads; refused when an object in it holds a key twice.
    mutating func skipCheckingDuplicates() throws {
        let range = try json.skipValue()
        guard json.bytes[range].contains(UInt8(ascii: "{")) else { return }
        if !JSONDefectScanner.duplicateKeys(in: Data(json.bytes[range])).isEmpty {
            throw refusal("duplicate key in a skipped value")
        }
    }
}
