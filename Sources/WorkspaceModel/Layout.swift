import StateCoding

/// How a project arranges its panes. A layout written by a newer release is kept as written.
///
/// Raw values are API: they are stored in files and sent to clients, so never rename one.
public struct Layout: ExtensibleEnum {
    /// The raw value as stored.
    public var rawValue: String { stored.rawValue(names: Self.names) }
    /// Wraps any raw value, known or not.
    public init(rawValue: String) { stored = CompactRawValue(rawValue, names: Self.names) }
    /// The raw value in one word (``CompactRawValue``).
    private let stored: CompactRawValue
    /// The raw values of ``knownValues``, in order.
    private static let names = ["single", "split", "quad"]
    /// One pane.
    public static let single = Layout(rawValue: "single")
    /// Two panes side by side.
    public static let split = Layout(rawValue: "split")
    /// Four panes in a grid.
    public static let quad = Layout(rawValue: "quad")
    /// The layouts this release understands.
    public static let knownValues: [Layout] = [.single, .split, .quad]
}
