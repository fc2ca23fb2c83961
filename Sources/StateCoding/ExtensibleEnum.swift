/// A string enumeration that keeps values this release does not know instead of failing to decode them.
///
/// Declare it as a struct with static members for the known cases:
///
/// ```swift
/// struct Layout: ExtensibleEnum {
///     let rawValue: String
///     init(rawValue: String) { self.rawValue = rawValue }
///     static let single = Layout(rawValue: "single")
///     static let split = Layout(rawValue: "split")
///     static let knownValues: [Layout] = [.single, .split]
/// }
/// ```
///
/// A file written by a newer release with `"layout": "grid"` loads as `Layout(rawValue: "grid")`, which
/// ``isKnown`` reports as unknown, and is written back as `"grid"`. Raw values are API: never rename one.
public protocol ExtensibleEnum: RawRepresentable, Codable, Hashable, Sendable, StateDirectDecodable,
    StateDirectEncodable
where RawValue == String {
    /// Wraps any raw value, known or not.
    init(rawValue: String)
    /// The values this release understands.
    static var knownValues: [Self] { get }
}

extension ExtensibleEnum {
    /// Whether this release understands the value.
    public var isKnown: Bool { Self.knownValues.contains(self) }

    /// Decodes any string, known or not.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the raw value as it was read.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension KeyedDecodingContainer {
    /// Decodes an ``ExtensibleEnum`` from the string under `key` directly, without the generic `Decodable` path
    /// (the decoder's type checks and a single-value container per value): the same value and the same errors,
    /// at about half the cost. Chosen over the generic `decode(_:forKey:)` wherever the type is known to be one.
    public func decode<Value: ExtensibleEnum>(_ type: Value.Type, forKey key: Key) throws -> Value {
        Value(rawValue: try decode(String.self, forKey: key))
    }

    /// Decodes an ``ExtensibleEnum`` from the string under `key`, or `nil` when the key is missing or `null`.
    public func decodeIfPresent<Value: ExtensibleEnum>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        try decodeIfPresent(String.self, forKey: key).map(Value.init(rawValue:))
    }
}

extension KeyedEncodingContainer {
    /// Encodes an ``ExtensibleEnum`` as its raw string directly, without the generic `Encodable` path.
    public mutating func encode<Value: ExtensibleEnum>(_ value: Value, forKey key: Key) throws {
        try encode(value.rawValue, forKey: key)
    }
}
