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
public protocol ExtensibleEnum: RawRepresentable, Codable, Hashable, Sendable where RawValue == String {
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
