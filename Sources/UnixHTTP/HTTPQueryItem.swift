/// One `name=value` pair of a request's query, percent-decoded.
public struct HTTPQueryItem: Sendable, Equatable, Hashable {
    /// The decoded name.
    public var name: String
    /// The decoded value, or `nil` when the item has no `=`.
    public var value: String?

    /// Creates a query item.
    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }
}
