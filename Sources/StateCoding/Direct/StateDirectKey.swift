import StateJSON

/// An object's key as a ``StateDirectReader`` read it: generated code compares it with each declared key.
public struct StateDirectKey {
    let key: JSONKey

    /// Whether the key is `name`, compared as `JSONDecoder` compares keys (as Swift strings, after unescaping):
    /// byte for byte when both are plain ASCII.
    public func matches(_ name: StaticString) -> Bool {
        key.matches(name)
    }

    /// The key's text, unescaped.
    public var text: String { key.string }
}
