extension KeyedDecodingContainer {
    /// Decodes the value for `key`, or gives `defaultValue` when the key is missing or `null`, and records the
    /// default in the load report (`LoadReport.fieldsDefaulted` (StateStore), by path such as `projects[].panes[].tabs`).
    ///
    /// For fields whose schema names a default: a file that leaves them out loads with it instead of being
    /// judged corrupt, and the next save writes the value explicitly. Outside a `StateCodec` load (a plain
    /// `JSONDecoder`) the default is given but recorded nowhere.
    ///
    /// ```swift
    /// tabs = try container.decode([Tab].self, forKey: .tabs, defaultingTo: [], in: decoder)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The field's type.
    ///   - key: The field's key.
    ///   - defaultValue: The value when the key is missing or `null`.
    ///   - decoder: The decoder passed to the model's `init(from:)`, which carries the load's context.
    /// - Throws: `DecodingError` when the key is present with a value of the wrong type.
    public func decode<Value: Decodable>(
        _ type: Value.Type, forKey key: Key, defaultingTo defaultValue: @autoclosure () -> Value,
        in decoder: any Decoder
    ) throws -> Value {
        if let value = try decodeIfPresent(type, forKey: key) { return value }
        if let context = LoadContext.of(decoder) {
            context.recordDefaulted(key.stringValue, at: codingPath)
        }
        return defaultValue()
    }

    /// Records that the field `key` was missing or `null` and took its default, and returns `value`.
    ///
    /// What `@StateModel` generates for a property with an initial value, after the field type's own
    /// `decodeIfPresent`:
    ///
    /// ```swift
    /// pinned = try container.decodeIfPresent(Bool.self, forKey: key) ?? container.defaulted(false, forKey: key, in: decoder)
    /// ```
    ///
    /// - Parameters:
    ///   - value: The default.
    ///   - key: The field's key.
    ///   - decoder: The decoder passed to the model's `init(from:)`, which carries the load's context.
    public func defaulted<Value>(_ value: Value, forKey key: Key, in decoder: any Decoder) -> Value {
        if let context = LoadContext.of(decoder) {
            context.recordDefaulted(key.stringValue, at: codingPath)
        }
        return value
    }
}
