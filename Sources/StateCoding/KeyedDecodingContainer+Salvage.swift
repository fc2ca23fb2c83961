extension KeyedDecodingContainer {
    /// Reads a required field in a salvage (``StateSalvageable/init(salvaging:)``): a nested model with its own
    /// salvage, a number as `String` or a string of digits as `Int`; throws when it still cannot be read, failing
    /// the record.
    public func salvage<Value: Decodable>(
        _ type: Value.Type, forKey key: Key, in decoder: any Decoder
    ) throws -> Value {
        try decode(Salvaging<Value>.self, forKey: key).value
    }

    /// Reads an optional field in a salvage: `nil` when it is missing or `null`, and also when its value cannot be
    /// read, which the salvage report lists (``SalvageReport/defaultedFields``).
    public func salvageIfPresent<Value: Decodable>(
        _ type: Value.Type, forKey key: Key, in decoder: any Decoder
    ) -> Value? {
        do {
            return try decodeIfPresent(Salvaging<Value>.self, forKey: key)?.value
        } catch {
            LoadContext.of(decoder)?.recordSalvageDefault(key.stringValue, at: codingPath, error: error)
            return nil
        }
    }

    /// Reads a field with a default in a salvage: the default when it is missing or `null` (recorded as for a
    /// strict load) and also when its value cannot be read (listed in ``SalvageReport/defaultedFields``).
    public func salvage<Value: Decodable>(
        _ type: Value.Type, forKey key: Key, defaultingTo defaultValue: @autoclosure () -> Value,
        in decoder: any Decoder
    ) -> Value {
        do {
            if let value = try decodeIfPresent(Salvaging<Value>.self, forKey: key)?.value { return value }
            return defaulted(defaultValue(), forKey: key, in: decoder)
        } catch {
            LoadContext.of(decoder)?.recordSalvageDefault(key.stringValue, at: codingPath, error: error)
            return defaultValue()
        }
    }

    /// Reads a required `@StateRecords` array in a salvage: every record that can be read, the others dropped and
    /// listed. Throws when the key is missing or does not hold an array.
    public func salvageRecords<Element: Decodable>(
        _ type: Element.Type, forKey key: Key, in decoder: any Decoder
    ) throws -> [Element] {
        var container = try nestedUnkeyedContainer(forKey: key)
        return try container.salvageRecords(Element.self)
    }

    /// Reads an optional `@StateRecords` array in a salvage: `nil` when it is missing, `null` or not an array
    /// (listed), else every record that can be read.
    public func salvageRecordsIfPresent<Element: Decodable>(
        _ type: Element.Type, forKey key: Key, in decoder: any Decoder
    ) -> [Element]? {
        do {
            return try recordsIfPresent(Element.self, forKey: key)
        } catch {
            LoadContext.of(decoder)?.recordSalvageDefault(key.stringValue, at: codingPath, error: error)
            return nil
        }
    }

    /// Reads a `@StateRecords` array with a default in a salvage: the default when it is missing or `null`
    /// (recorded as for a strict load) or not an array (listed), else every record that can be read.
    public func salvageRecords<Element: Decodable>(
        _ type: Element.Type, forKey key: Key, defaultingTo defaultValue: @autoclosure () -> [Element],
        in decoder: any Decoder
    ) -> [Element] {
        do {
            if let records = try recordsIfPresent(Element.self, forKey: key) { return records }
            return defaulted(defaultValue(), forKey: key, in: decoder)
        } catch {
            LoadContext.of(decoder)?.recordSalvageDefault(key.stringValue, at: codingPath, error: error)
            return defaultValue()
        }
    }

    /// The records of the array at `key`; `nil` when the key is missing or `null`. Throws when it is not an array.
    private func recordsIfPresent<Element: Decodable>(_ type: Element.Type, forKey key: Key) throws -> [Element]? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        var container = try nestedUnkeyedContainer(forKey: key)
        return try container.salvageRecords(Element.self)
    }
}
