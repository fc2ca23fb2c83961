import FoundationEssentials

// The standard types a model holds, read as `JSONDecoder` reads them.

extension String: StateDirectDecodable {
    /// Reads a string.
    public init(stateReader reader: inout StateDirectReader) throws { self = try reader.readString() }
}

extension Bool: StateDirectDecodable {
    /// Reads `true` or `false`.
    public init(stateReader reader: inout StateDirectReader) throws { self = try reader.readBool() }
}

extension Int: StateDirectDecodable {
    /// Reads a number the type holds.
    public init(stateReader reader: inout StateDirectReader) throws { self = try reader.readInteger() }
}

extension Int8: StateDirectDecodable {
    /// Reads a number the type holds.
    public init(stateReader reader: inout StateDirectReader) throws { self = try reader.readInteger() }
}

extension Int16: StateDirectDecodable {
    /// Reads a number the type holds.
    public init(stateReader reader: inout StateDirectReader) throws { self = try reader.readInteger() }
}

extension Int32: StateDirectDecodable {
    /// Reads a number the type holds.
    public init(stateReader reader: inout StateDirectReader) throws { self = try reader.readInteger() }
}

extension Int64: StateDirectDecodable {
    /// Reads a number the type holds.
    public init(stateReader reader: inout StateDirectReader) throws { self = try reader.readInteger() }
}

extension UInt: StateDirectDecodable {
    /// Reads a number the type holds.
    public init(stateReader reader: inout StateDirectReader) throws { self = try reader.readInteger() }
}

extension UInt8: StateDirectDecodable {
    /// Reads a number the type holds.
    public init(stateReader reader: inout StateDirectReader) throws { self = try reader.readInteger() }
}

extension UInt16: StateDirectDecodable {
    /// Reads a number the type holds.
    public init(stateReader reader: inout StateDirectReader) throws { self = try reader.readInteger() }
}

extension UInt32: StateDirectDecodable {
    /// Reads a number the type holds.
    public init(stateReader reader: inout StateDirectReader) throws { self = try reader.readInteger() }
}

extension UInt64: StateDirectDecodable {
    /// Reads a number the type holds.
    public init(stateReader reader: inout StateDirectReader) throws { self = try reader.readInteger() }
}

extension Double: StateDirectDecodable {
    /// Reads a number.
    public init(stateReader reader: inout StateDirectReader) throws { self = try reader.readDouble() }
}

extension Float: StateDirectDecodable {
    /// Reads a number.
    public init(stateReader reader: inout StateDirectReader) throws { self = try reader.readFloat() }
}

extension Date: StateDirectDecodable {
    /// Reads a date as the load's date strategy writes it.
    public init(stateReader reader: inout StateDirectReader) throws { self = try reader.readDate() }
}

extension UUID: StateDirectDecodable {
    /// Reads a UUID's string, in either letter case.
    public init(stateReader reader: inout StateDirectReader) throws {
        let text = try reader.readString()
        guard let uuid = UUID(uuidString: text) else { throw reader.refusal("\"\(text)\" is not a UUID") }
        self = uuid
    }
}

extension Optional: StateDirectDecodable where Wrapped: StateDirectDecodable {
    /// Reads `null` as nil, or the wrapped type's value.
    @inlinable
    public init(stateReader reader: inout StateDirectReader) throws {
        self = try reader.readNull() ? nil : Wrapped(stateReader: &reader)
    }
}

extension Array: StateDirectDecodable where Element: StateDirectDecodable {
    /// Reads an array of the element type's values.
    @inlinable
    public init(stateReader reader: inout StateDirectReader) throws {
        self = try reader.readElements(Element.self)
    }
}

extension ExtensibleEnum {
    /// Reads the value's string, known or not.
    public init(stateReader reader: inout StateDirectReader) throws {
        self.init(rawValue: try reader.readString())
    }
}
