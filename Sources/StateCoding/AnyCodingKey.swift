/// A coding key for any string or integer, used to read and write keys a model does not declare.
public struct AnyCodingKey: CodingKey, Hashable, Sendable {
    /// The key's text.
    public let stringValue: String
    /// The key's index, when it is one.
    public let intValue: Int?

    /// A key with the given text.
    public init(_ string: String) {
        self.stringValue = string
        self.intValue = nil
    }

    /// A key with the given text.
    public init(stringValue: String) {
        self.init(stringValue)
    }

    /// A key for an array index.
    public init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}
