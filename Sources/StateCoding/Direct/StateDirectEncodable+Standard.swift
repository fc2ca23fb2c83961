import FoundationEssentials

// The standard types a model holds, written as StateStore's encoder writes them.

extension String: StateDirectEncodable {
    /// Writes the string, escaped.
    public func write(stateWriter writer: inout StateDirectWriter) throws { writer.writeString(self) }
}

extension Bool: StateDirectEncodable {
    /// Writes `true` or `false`.
    public func write(stateWriter writer: inout StateDirectWriter) throws { writer.writeBool(self) }
}

extension Int: StateDirectEncodable {
    /// Writes the number in decimal.
    public func write(stateWriter writer: inout StateDirectWriter) throws { writer.writeInteger(self) }
}

extension Int8: StateDirectEncodable {
    /// Writes the number in decimal.
    public func write(stateWriter writer: inout StateDirectWriter) throws { writer.writeInteger(self) }
}

extension Int16: StateDirectEncodable {
    /// Writes the number in decimal.
    public func write(stateWriter writer: inout StateDirectWriter) throws { writer.writeInteger(self) }
}

extension Int32: StateDirectEncodable {
    /// Writes the number in decimal.
    public func write(stateWriter writer: inout StateDirectWriter) throws { writer.writeInteger(self) }
}

extension Int64: StateDirectEncodable {
    /// Writes the number in decimal.
    public func write(stateWriter writer: inout StateDirectWriter) throws { writer.writeInteger(self) }
}

extension UInt: StateDirectEncodable {
    /// Writes the number in decimal.
    public func write(stateWriter writer: inout StateDirectWriter) throws { writer.writeInteger(self) }
}

extension UInt8: StateDirectEncodable {
    /// Writes the number in decimal.
    public func write(stateWriter writer: inout StateDirectWriter) throws { writer.writeInteger(self) }
}

extension UInt16: StateDirectEncodable {
    /// Writes the number in decimal.
    public func write(stateWriter writer: inout StateDirectWriter) throws { writer.writeInteger(self) }
}

extension UInt32: StateDirectEncodable {
    /// Writes the number in decimal.
    public func write(stateWriter writer: inout StateDirectWriter) throws { writer.writeInteger(self) }
}

extension UInt64: StateDirectEncodable {
    /// Writes the number in decimal.
    public func write(stateWriter writer: inout StateDirectWriter) throws { writer.writeInteger(self) }
}

extension Double: StateDirectEncodable {
    /// Writes the number as `JSONEncoder` does.
    public func write(stateWriter writer: inout StateDirectWriter) throws { try writer.writeNumber(self) }
}

extension Float: StateDirectEncodable {
    /// Writes the number as `JSONEncoder` does.
    public func write(stateWriter writer: inout StateDirectWriter) throws { try writer.writeNumber(self) }
}

extension Date: StateDirectEncodable {
    /// Writes the date as the save's date strategy writes it.
    public func write(stateWriter writer: inout StateDirectWriter) throws { try writer.writeDate(self) }
}

extension UUID: StateDirectEncodable {
    /// Writes the UUID's string, in upper case as `UUID`'s `encode(to:)` does.
    public func write(stateWriter writer: inout StateDirectWriter) throws { writer.writeString(uuidString) }
}

extension JSONValue: StateDirectEncodable {
    /// Writes the value through StateStore's encoder, as it is written among unknown fields.
    public func write(stateWriter writer: inout StateDirectWriter) throws { try writer.writeEncodable(self) }
}

extension Optional: StateDirectEncodable where Wrapped: StateDirectEncodable {
    /// Writes `null` for nil, or the wrapped value.
    @inlinable
    public func write(stateWriter writer: inout StateDirectWriter) throws {
        if let self { try self.write(stateWriter: &writer) } else { writer.writeNull() }
    }
}

extension Array: StateDirectEncodable where Element: StateDirectEncodable {
    /// Writes the elements in order.
    @inlinable
    public func write(stateWriter writer: inout StateDirectWriter) throws { try writer.writeArray(self) }
}

extension ExtensibleEnum {
    /// Writes the raw value.
    public func write(stateWriter writer: inout StateDirectWriter) throws { writer.writeString(rawValue) }
}
