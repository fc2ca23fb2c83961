import FoundationEssentials

/// The `Encoder` of one value for ``CompactJSONEncoder``: it writes a single value, or opens one object or one
/// array (asked for again, the same one, as `JSONEncoder` merges them), where its value belongs in the buffer.
final class CompactValueEncoder: Encoder, SingleValueEncodingContainer {
    /// What the value has written so far.
    private enum State {
        case empty
        case single
        case object(CompactObject)
        case array(CompactArray)
        case finished
    }

    let writer: CompactJSONWriter
    /// The encoder of the value this one is part of, for the coding path.
    @exclusivity(unchecked) private var parent: CompactValueEncoder?
    /// This value's key in its parent (`nil` at the top level and for a value that stands for its parent's).
    @exclusivity(unchecked) private var key: (any CodingKey)?
    /// The container this value is written into (`nil`: the top level).
    @exclusivity(unchecked) private(set) var container: ObjectIdentifier?
    @exclusivity(unchecked) private var state = State.empty

    init(writer: CompactJSONWriter, parent: CompactValueEncoder?, key: (any CodingKey)?, container: ObjectIdentifier?) {
        self.writer = writer
        self.parent = parent
        self.key = key
        self.container = container
    }

    /// Makes this encoder the one of another value.
    func reset(parent: CompactValueEncoder?, key: (any CodingKey)?, container: ObjectIdentifier?) {
        self.parent = parent
        self.key = key
        self.container = container
        state = .empty
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var encoder: CompactValueEncoder? = self
        while let current = encoder {
            if let key = current.key { path.append(key) }
            encoder = current.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Completes the value: closes its object or array; a value that wrote nothing is `{}`, as with
    /// `JSONEncoder`.
    func finish() throws {
        switch state {
        case .empty:
            if !writer.isInnermost(container) { writer.fail("a value written after a later one was started") }
            try writer.check()
            writer.append("{}")
        case .single, .finished: break
        case .object(let object): try writer.closeObject(object)
        case .array(let array): try writer.closeArray(array)
        }
        state = .finished
    }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        switch state {
        case .object(let object):
            return KeyedEncodingContainer(CompactKeyedContainer(encoder: self, object: object))
        case .empty:
            let object = writer.openObject(in: container)
            state = .object(object)
            return KeyedEncodingContainer(CompactKeyedContainer(encoder: self, object: object))
        case .single, .array, .finished:
            writer.fail("a keyed container where a value was already written")
            return KeyedEncodingContainer(
                CompactKeyedContainer(encoder: self, object: CompactObject(start: 0, firstMember: 0)))
        }
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        switch state {
        case .array(let array):
            return CompactUnkeyedContainer(encoder: self, array: array)
        case .empty:
            let array = writer.openArray(in: container)
            state = .array(array)
            return CompactUnkeyedContainer(encoder: self, array: array)
        case .single, .object, .finished:
            writer.fail("an unkeyed container where a value was already written")
            return CompactUnkeyedContainer(encoder: self, array: CompactArray())
        }
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    // MARK: Single value

    /// Claims this value's place for one single value.
    func beginValue() throws {
        guard case .empty = state, writer.isInnermost(container) else {
            writer.fail("a single value where a value was already written")
            try writer.check()
            return
        }
        try writer.check()
        state = .single
    }

    func encodeNil() throws {
        try beginValue()
        writer.append("null")
    }

    func encode(_ value: Bool) throws {
        try beginValue()
        writer.append(value ? "true" : "false")
    }

    func encode(_ value: String) throws {
        try beginValue()
        writer.writeString(value)
    }

    func encode(_ value: Double) throws {
        try beginValue()
        try writer.writeNumber(value)
    }

    func encode(_ value: Float) throws {
        try beginValue()
        try writer.writeNumber(value)
    }

    func encode(_ value: Int) throws { try integer(value) }
    func encode(_ value: Int8) throws { try integer(value) }
    func encode(_ value: Int16) throws { try integer(value) }
    func encode(_ value: Int32) throws { try integer(value) }
    func encode(_ value: Int64) throws { try integer(value) }
    func encode(_ value: UInt) throws { try integer(value) }
    func encode(_ value: UInt8) throws { try integer(value) }
    func encode(_ value: UInt16) throws { try integer(value) }
    func encode(_ value: UInt32) throws { try integer(value) }
    func encode(_ value: UInt64) throws { try integer(value) }

    private func integer(_ value: some FixedWidthInteger) throws {
        try beginValue()
        writer.append(value.description)
    }

    func encode<T: Encodable>(_ value: T) throws {
        guard case .empty = state, writer.isInnermost(container) else {
            writer.fail("a single value where a value was already written")
            try writer.check()
            return
        }
        // The value stands for this one: same place, same coding path.
        state = .single
        let stand = CompactValueEncoder(writer: writer, parent: self, key: nil, container: container)
        try writer.write(value, with: stand)
    }
}
