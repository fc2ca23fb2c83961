import StateCoding
import StateModel

/// A tab in a pane: another folder kept open.
@StateModel
public struct Tab: Codable, Sendable, Equatable, Identifiable {
    /// Unique among the tabs of every pane.
    public var id: WorkspaceID
    /// The absolute path the tab shows.
    public var folder: String
    /// Keys this version does not declare.
    public var unknownFields: UnknownFields
}
