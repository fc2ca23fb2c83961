import StateJSON

// What `@StateModel`'s generated `init(stateReader:)` calls, in the order it calls it: open the object, read each
// key, claim a declared one and read its value, keep or skip an undeclared one, then check the required fields and
// give the missing ones their defaults.

extension StateDirectReader {
    /// Reads the `{` that opens an object; then ``nextKey()`` reads its members.
    @inlinable
    public mutating func beginObject() throws {
        try json.beginObject()
    }

    /// The next key of the object being read, with its value next; nil at the `}` that closes the object.
    @inlinable
    public mutating func nextKey() throws -> StateDirectKey? {
        guard let key = try json.nextKey() else { return nil }
        return StateDirectKey(key: key)
    }

    // The reads below are inlinable so that a model's module specializes them for its field types: unspecialized,
    // each call would look up the metadata of `Optional<Value>` or `[Element]` at run time.

    /// Marks the declared key `key` read, as bit `bit` of `seen`: throws when the object holds it twice (the
    /// `Codable` path refuses a duplicate key), or when it is one of the store's envelope keys at the root.
    ///
    /// `mutating` though it changes nothing: called on the `inout` reader of a generated decoder, a non-mutating
    /// method made the compiler copy the whole reader to read one flag.
    @inlinable
    public mutating func claim(_ key: StateDirectKey, bit: Int, of seen: inout UInt64) throws {
        let mask = UInt64(1) << UInt64(bit)
        guard seen & mask == 0 else { throw duplicateKey(key) }
        seen |= mask
        if capturesEnvelope { try refuseEnvelopeKey(key) }
    }

    /// The refusal of `key` held twice, made out of line: ``claim(_:bit:of:)`` is inlined into every field's read.
    @usableFromInline
    func duplicateKey(_ key: StateDirectKey) -> StateDirectReadError {
        refusal("duplicate key \"\(key.text)\"")
    }

    /// Throws when `key`, which the type being read declares, is one of the store's envelope keys at the root.
    @usableFromInline
    func refuseEnvelopeKey(_ key: StateDirectKey) throws {
        if isEnvelopeKey(key) { throw refusal("the model declares the store's root key \"\(key.text)\"") }
    }

    /// Reads the value of the member `key`, as `KeyedDecodingContainer.decode(_:forKey:)` would.
    @inlinable
    public mutating func read<Value: StateDirectDecodable>(_ type: Value.Type, at key: StaticString) throws -> Value {
        path.append(.key(key))
        defer { path.removeLast() }
        return try Value(stateReader: &self)
    }

    /// Reads the value of the member `key`, nil for `null`, as `decodeIfPresent(_:forKey:)` would.
    @inlinable
    public mutating func readIfPresent<Value: StateDirectDecodable>(
        _ type: Value.Type, at key: StaticString
    ) throws -> Value? {
        if try readNull() { return nil }
        return try read(type, at: key)
    }

    /// Reads the value of the member `key` with `coder`, as `coder.decode(from:forKey:)` would.
    @inlinable
    public mutating func read<Coder: StateDirectFieldCoder>(
        with coder: Coder.Type, at key: StaticString
    ) throws -> Coder.Value {
        path.append(.key(key))
        defer { path.removeLast() }
        return try Coder.decode(stateReader: &self)
    }

    /// A type without a direct reader: the model holding it loads through `Codable` (the compiler warns).
    @available(
        *, deprecated,
        message: "this type has no direct reader (StateDirectDecodable): models holding it load through Codable, slower"
    )
    public mutating func read<Value: Decodable>(_ type: Value.Type, at key: StaticString) throws -> Value {
        throw refusal("\(Value.self) has no direct reader")
    }

    /// A type without a direct reader: the model holding it loads through `Codable` (the compiler warns).
    @available(
        *, deprecated,
        message: "this type has no direct reader (StateDirectDecodable): models holding it load through Codable, slower"
    )
    public mutating func readIfPresent<Value: Decodable>(_ type: Value.Type, at key: StaticString) throws -> Value? {
        throw refusal("\(Value.self) has no direct reader")
    }

    /// A coder without a direct reader: the model holding its field loads through `Codable` (the compiler warns).
    @available(
        *, deprecated,
        message:
            "this coder has no direct reader (StateDirectFieldCoder): models holding it load through Codable, slower"
    )
    public mutating func read<Coder: StateFieldCoder>(
        with coder: Coder.Type, at key: StaticString
    ) throws -> Coder.Value {
        throw refusal("\(Coder.self) has no direct reader")
    }

    /// `value`, or a refusal naming the missing required `key` (the `Codable` path says `keyNotFound`).
    ///
    /// `mutating` though it changes nothing, as ``claim(_:bit:of:)`` is: non-mutating, it made the compiler copy
    /// the whole reader before it looked at `value`.
    @inlinable
    public mutating func required<Value>(_ value: Value?, _ key: StaticString) throws -> Value {
        guard let value else { throw refusalAt("no value for the required key \"\(key)\"") }
        return value
    }

    /// Records that the field `key` of the object being read was missing or `null` and took its default, and
    /// returns `value`, as `KeyedDecodingContainer.defaulted(_:forKey:in:)` does in a load.
    public mutating func defaulted<Value>(_ value: Value, _ key: StaticString) -> Value {
        fieldsDefaulted[fieldPath(key.description), default: 0] += 1
        return value
    }

    /// Reads the value of the undeclared member `key` into `unknownFields`, exactly as `UnknownFields`'s
    /// `Codable` capture would (a `JSONValue`, refused where that capture fails), with the exact JSON text it was
    /// written as, counted by path; at the root of a store load, one of the store's own keys is read into
    /// ``envelope`` instead.
    public mutating func keepUnknown(_ key: StateDirectKey, in unknownFields: inout UnknownFields) throws {
        if envelopeKeys != nil, try captureEnvelopeKey(key) { return }
        let name = key.text
        guard unknownFields.fields[name] == nil else { throw refusal("duplicate key \"\(name)\"") }
        _ = try json.peekKind()
        let start = json.byteOffset
        let value = try readJSONValue()
        let text = String(decoding: json.bytes[start..<json.byteOffset], as: UTF8.self)
        unknownFields.keep(value, text: text, forKey: name)
        unknownKeysKept[fieldPath(name), default: 0] += 1
    }

    /// Skips the value of the undeclared member `key` of a type that keeps no unknown fields, checking what
    /// `JSONDecoder` checks of a value it skips, with the keys skipped in this object so far in `skipped` (a key
    /// held twice is refused), and counts it as dropped, by path; at the root of a store load, one of the store's
    /// own keys is read into ``envelope`` instead.
    public mutating func skipUnknown(_ key: StateDirectKey, skipped: inout Set<String>) throws {
        if envelopeKeys != nil, try captureEnvelopeKey(key) { return }
        guard skipped.insert(key.text).inserted else { throw refusal("duplicate key \"\(key.text)\"") }
        try skipCheckingDuplicates()
        unknownKeysDropped[fieldPath(key.text), default: 0] += 1
    }
}
