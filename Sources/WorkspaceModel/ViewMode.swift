import StateCoding

/// How a pane shows its folder. A view mode written by a newer release is kept as written.
///
/// Raw values are API: they are stored in files and sent to clients, so never rename one. Versions 1 to 3
/// stored the mode as a number; see ``init(storedNumber:)``.
public struct ViewMode: ExtensibleEnum {
    /// The raw value as stored.
    public var rawValue: String { stored.rawValue(names: Self.names) }
    /// Wraps any raw value, known or not.
    public init(rawValue: String) { stored = CompactRawValue(rawValue, names: Self.names) }
    /// The raw value in one word (``CompactRawValue``).
    private let stored: CompactRawValue
    /// The raw values of ``knownValues``, in order.
    private static let names = ["list", "icons", "columns"]
    /// A list of names.
    public static let list = ViewMode(rawValue: "list")
    /// A grid of icons.
    public static let icons = ViewMode(rawValue: "icons")
    /// Miller columns.
    public static let columns = ViewMode(rawValue: "columns")
    /// The view modes this release understands.
    public static let knownValues: [ViewMode] = [.list, .icons, .columns]

    /// The mode versions 1 to 3 stored as a number (0 list, 1 icons, 2 columns); `nil` for any other number.
    public init?(storedNumber: Int) {
        switch storedNumber {
        case 0: self = .list
        case 1: self = .icons
        case 2: self = .columns
        default: return nil
        }
    }
}
