import StateCoding
import StateModel

/// A pane: a folder shown in a view mode, with tabs.
///
/// A missing `focusedTabIndex` reads as 0 and missing `tabs` as none, each recorded as defaulted in the load
/// report.
@StateModel
public struct Pane: Codable, Sendable, Equatable, Identifiable {
    /// Unique among the panes of every project.
    public var id: WorkspaceID
    /// The absolute path the pane shows.
    public var folder: String
    /// How the folder is shown; may be a mode from a newer release.
    public var viewMode: ViewMode
    /// The index of the focused tab in ``tabs``; 0 when there are no tabs.
    public var focusedTabIndex: Int = 0
    /// The open tabs, in order.
    @StateRecords public var tabs: [Tab] = []
    /// Keys this version does not declare.
    public var unknownFields: UnknownFields
}

extension Pane {
    /// Whether ``focusedTabIndex`` names a tab, or is 0 when there are none.
    public var hasValidFocus: Bool {
        tabs.isEmpty ? focusedTabIndex == 0 : tabs.indices.contains(focusedTabIndex)
    }

    /// The focused tab; `nil` when there are no tabs.
    public var focusedTab: Tab? {
        tabs.indices.contains(focusedTabIndex) ? tabs[focusedTabIndex] : nil
    }
}
