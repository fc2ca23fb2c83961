/// The kinds of record that carry a ``WorkspaceID``. Ids are unique within a kind across the whole workspace.
public enum RecordKind: String, Codable, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// A ``Project``.
    case project
    /// A ``Pane`` (in any project).
    case pane
    /// A ``Tab`` (in any pane).
    case tab
    /// A ``Favorite``.
    case favorite

    /// The raw value.
    public var description: String { rawValue }
}
