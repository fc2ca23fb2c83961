/// Opening, closing and focusing tabs. Tabs are found by id across every pane; the focus always stays valid.
extension Workspace {
    /// Opens a tab at the end of the pane `paneID`, focuses it and returns it.
    ///
    /// - Parameters:
    ///   - paneID: The pane to open it in.
    ///   - folder: An absolute path without NUL, at most 4096 bytes.
    ///   - id: The new tab's id, or `nil` for a fresh random one (122 random bits, not checked against
    ///     existing ids). A given id must not name an existing tab.
    /// - Throws: ``WorkspaceError/notFound(kind:id:)``, ``WorkspaceError/invalid(field:reason:)`` or
    ///   ``WorkspaceError/alreadyExists(kind:id:)``.
    @discardableResult
    public mutating func openTab(
        inPane paneID: WorkspaceID, folder: String, id: WorkspaceID? = nil
    ) throws(WorkspaceError) -> Tab {
        let location = try paneLocation(paneID)
        try Validation.path(folder, field: "folder")
        let id = try newID(id, kind: .tab)
        let tab = Tab(id: id, folder: folder)
        projects[location.project].panes[location.pane].tabs.append(tab)
        projects[location.project].panes[location.pane].focusedTabIndex =
            projects[location.project].panes[location.pane].tabs.count - 1
        return tab
    }

    /// Closes the tab `id`. The same tab stays focused when another one closes; when the focused one closes,
    /// the tab that took its place (or the new last one) is focused; with no tabs left the index is 0.
    ///
    /// - Throws: ``WorkspaceError/notFound(kind:id:)``.
    public mutating func closeTab(_ id: WorkspaceID) throws(WorkspaceError) {
        let location = try tabLocation(id)
        var pane = projects[location.project].panes[location.pane]
        pane.tabs.remove(at: location.tab)
        if location.tab < pane.focusedTabIndex {
            pane.focusedTabIndex -= 1
        }
        pane.focusedTabIndex = min(pane.focusedTabIndex, max(pane.tabs.count - 1, 0))
        projects[location.project].panes[location.pane] = pane
    }

    /// Focuses the tab `id` in its pane.
    ///
    /// - Throws: ``WorkspaceError/notFound(kind:id:)``.
    public mutating func focusTab(_ id: WorkspaceID) throws(WorkspaceError) {
        let location = try tabLocation(id)
        projects[location.project].panes[location.pane].focusedTabIndex = location.tab
    }
}
