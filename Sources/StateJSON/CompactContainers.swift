import FoundationEssentials

/// A keyed container of ``CompactJSONEncoder``: each member is written as it comes, its value in place.
struct CompactKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: CompactValueEncoder
    let object: CompactObject

    var codingPath: [any CodingKey] { encoder.codingPath }

    private var writer: CompactJSONWriter { encoder.writer }

    private func member(_ key: Key, _ write: () throws -> Void) throws {
        try writer.beginMember(key.stringValue, of: object)
        try write()
        writer.endMember()
    }

    mutating func encodeNil(forKey key: Key) throws { try member(key) { writer.append("null") } }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try member(key) { writer.append(value ? "true" : "false") }
    }
    mutating func encode(_ value: String, forKey key: Key) throws { try member(key) { writer.writeString(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws { try member(key) { try writer.writeNumber(value) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { try member(key) { try writer.writeNumber(value) } }
    mutating func encode(_ value: Int, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try integer(value, key) }

    private func integer(_ value: some FixedWidthInteger, _ key: Key) throws {
        try member(key) { writer.append(value.description) }
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try member(key) {
            try writer.writeChild(value, parent: encoder, key: key, container: ObjectIdentifier(object))
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        writer.fail("a nested keyed container")
        return KeyedEncodingContainer(
            CompactKeyedContainer<NestedKey>(encoder: encoder, object: CompactObject(start: 0, firstMember: 0)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        writer.fail("a nested unkeyed container")
        return CompactUnkeyedContainer(encoder: encoder, array: CompactArray())
    }

    mutating func superEncoder() -> any Encoder {
        writer.fail("a super encoder")
        return encoder
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        writer.fail("a super encoder")
        return encoder
    }
}

/// An unkeyed container of ``CompactJSONEncoder``: each element is written as it comes.
struct CompactUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: CompactValueEncoder
    let array: CompactArray

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { array.count }

    private var writer: CompactJSONWriter { encoder.writer }

    private func element(_ write: () throws -> Void) throws {
        try writer.beginElement(of: array)
        try write()
    }

    mutating func encodeNil() throws { try element { writer.append("null") } }
    mutating func encode(_ value: Bool) throws { try element { writer.append(value ? "true" : "false") } }
    mutating func encode(_ value: String) throws { try element { writer.writeString(value) } }
    mutating func encode(_ value: Double) throws { try element { try writer.writeNumber(value) } }
    mutating func encode(_ value: Float) throws { try element { try writer.writeNumber(value) } }
    mutating func encode(_ value: Int) throws { try integer(value) }
    mutating func encode(_ value: Int8) throws { try integer(value) }
    mutating func encode(_ value: Int16) throws { try integer(value) }
    mutating func encode(_ value: Int32) throws { try integer(value) }
    mutating func encode(_ value: Int64) throws { try integer(value) }
    mutating func encode(_ value: UInt) throws { try integer(value) }
    mutating func encode(_ value: UInt8) throws { try integer(value) }
    mutating func encode(_ value: UInt16) throws { try integer(value) }
    mutating func encode(_ value: UInt32) throws { try integer(value) }
    mutating func encode(_ value: UInt64) throws { try integer(value) }

    private func integer(_ value: some FixedWidthInteger) throws {
        try element { writer.append(value.description) }
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = array.count
        try element {
            try writer.writeChild(
                value, parent: encoder, key: CompactIndexKey(index: index), container: ObjectIdentifier(array))
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<
        NestedKey
    > {
        writer.fail("a nested keyed container")
        return KeyedEncodingContainer(
            CompactKeyedContainer<NestedKey>(encoder: encoder, object: CompactObject(start: 0, firstMember: 0)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.fail("a nested unkeyed container")
        return CompactUnkeyedContainer(encoder: encoder, array: CompactArray())
    }

    mutating func superEncoder() -> any Encoder {
        writer.fail("a super encoder")
        return encoder
    }
}
