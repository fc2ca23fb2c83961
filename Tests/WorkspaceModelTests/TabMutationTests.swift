import Foundation
import Testing

@testable import WorkspaceModel

@Suite("Tab mutations")
struct TabMutationTests {
    private func focused(_ workspace: Workspace) -> Int { workspace.projects[0].panes[0].focusedTabIndex }
    private func tabIDs(_ workspace: Workspace) -> [WorkspaceID] { workspace.projects[0].panes[0].tabs.map(\.id) }

    @Test func openTabAppendsAndFocusesIt() throws {
        var workspace = sampleWorkspace()
        let tab = try workspace.openTab(inPane: sequentialID(2), folder: "/one/c", id: sequentialID(9))
        #expect(tab == Tab(id: sequentialID(9), folder: "/one/c"))
        #expect(tabIDs(workspace) == [sequentialID(3), sequentialID(4), sequentialID(9)])
        #expect(focused(workspace) == 2)
    }

    @Test func openTabValidates() {
        var workspace = sampleWorkspace()
        #expect(throws: WorkspaceError.notFound(kind: .pane, id: sequentialID(7))) {
            try workspace.openTab(inPane: sequentialID(7), folder: "/x")
        }
        #expect(throws: WorkspaceError.self) { try workspace.openTab(inPane: sequentialID(2), folder: "") }
        #expect(throws: WorkspaceError.alreadyExists(kind: .tab, id: sequentialID(3))) {
            try workspace.openTab(inPane: sequentialID(2), folder: "/x", id: sequentialID(3))
        }
        #expect(workspace == sampleWorkspace())
    }

    @Test func focusTabFocusesItInItsPane() throws {
        var workspace = sampleWorkspace()
        try workspace.focusTab(sequentialID(3))
        #expect(focused(workspace) == 0)
        #expect(workspace.projects[0].panes[0].focusedTab?.id == sequentialID(3))
        #expect(throws: WorkspaceError.notFound(kind: .tab, id: sequentialID(7))) {
            try workspace.focusTab(sequentialID(7))
        }
    }

    @Test func closingATabBeforeTheFocusedOneKeepsTheSameTabFocused() throws {
        var workspace = sampleWorkspace()
        try workspace.openTab(inPane: sequentialID(2), folder: "/one/c", id: sequentialID(9))
        try workspace.focusTab(sequentialID(4))
        try workspace.closeTab(sequentialID(3))
        #expect(tabIDs(workspace) == [sequentialID(4), sequentialID(9)])
        #expect(focused(workspace) == 0)
        #expect(workspace.projects[0].panes[0].focusedTab?.id == sequentialID(4))
    }

    @Test func closingATabAfterTheFocusedOneKeepsTheFocus() throws {
        var workspace = sampleWorkspace()
        try workspace.openTab(inPane: sequentialID(2), folder: "/one/c", id: sequentialID(9))
        try workspace.focusTab(sequentialID(3))
        try workspace.closeTab(sequentialID(9))
        #expect(workspace.projects[0].panes[0].focusedTab?.id == sequentialID(3))
    }

    @Test func closingTheFocusedLastTabFocusesTheNewLastOne() throws {
        var workspace = sampleWorkspace()
        try workspace.closeTab(sequentialID(4))
        #expect(focused(workspace) == 0)
        #expect(workspace.projects[0].panes[0].focusedTab?.id == sequentialID(3))
    }

    @Test func closingTheFocusedTabFocusesTheOneThatTookItsPlace() throws {
        var workspace = sampleWorkspace()
        try workspace.openTab(inPane: sequentialID(2), folder: "/one/c", id: sequentialID(9))
        try workspace.focusTab(sequentialID(4))
        try workspace.closeTab(sequentialID(4))
        #expect(workspace.projects[0].panes[0].focusedTab?.id == sequentialID(9))
    }

    @Test func closingEveryTabLeavesIndexZero() throws {
        var workspace = sampleWorkspace()
        try workspace.closeTab(sequentialID(4))
        try workspace.closeTab(sequentialID(3))
        #expect(tabIDs(workspace).isEmpty)
        #expect(focused(workspace) == 0)
        #expect(workspace.projects[0].panes[0].hasValidFocus)
        #expect(throws: WorkspaceError.notFound(kind: .tab, id: sequentialID(3))) {
            try workspace.closeTab(sequentialID(3))
        }
    }
}
