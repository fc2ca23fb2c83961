import StateCoding
import StateModel

/// A project: a named set of panes in a layout.
@StateModel
public struct Project: Codable, Sendable, Equatable, Identifiable {
    /// Unique among projects.
    public var id: WorkspaceID
    /// Shown to people.
    public var name: String
    /// How the panes are arranged; may be a layout from a newer release.
    public var layout: Layout
    /// The panes, in order; required in the file.
    @StateRecords public var panes: [Pane]
    /// Keys this version does not declare.
    public var unknownFields: UnknownFields

    /// A project with the given fields; no panes unless given.
    public init(
        id: WorkspaceID, name: String, layout: Layout, panes: [Pane] = [],
        unknownFields: UnknownFields = UnknownFields()
    ) {
        self.id = id
        self.name = name
        self.layout = layout
        self.panes = panes
        self.unknownFields = unknownFields
    }
}
