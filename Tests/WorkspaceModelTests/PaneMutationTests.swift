import Foundation
import Testing

@testable import WorkspaceModel

@Suite("Pane mutations")
struct PaneMutationTests {
    @Test func addPaneAppendsAPaneWithoutTabs() throws {
        var workspace = sampleWorkspace()
        let pane = try workspace.addPane(
            toProject: sequentialID(1), folder: "/two", viewMode: .columns, id: sequentialID(9))
        #expect(pane == Pane(id: sequentialID(9), folder: "/two", viewMode: .columns))
        #expect(workspace.projects[0].panes.map(\.id) == [sequentialID(2), sequentialID(9)])
    }

    @Test func addPaneValidates() {
        var workspace = sampleWorkspace()
        #expect(throws: WorkspaceError.notFound(kind: .project, id: sequentialID(7))) {
            try workspace.addPane(toProject: sequentialID(7), folder: "/x")
        }
        #expect(throws: WorkspaceError.invalid(field: "folder", reason: "must be an absolute path")) {
            try workspace.addPane(toProject: sequentialID(1), folder: "relative")
        }
        #expect(throws: WorkspaceError.self) {
            try workspace.addPane(toProject: sequentialID(1), folder: "/x", viewMode: ViewMode(rawValue: "gallery"))
        }
        #expect(throws: WorkspaceError.alreadyExists(kind: .pane, id: sequentialID(2))) {
            try workspace.addPane(toProject: sequentialID(1), folder: "/x", id: sequentialID(2))
        }
        #expect(workspace == sampleWorkspace())
    }

    @Test func paneIdsAreUniqueAcrossProjects() throws {
        var workspace = sampleWorkspace()
        try workspace.createProject(name: "Two", layout: .single, id: sequentialID(9))
        #expect(throws: WorkspaceError.alreadyExists(kind: .pane, id: sequentialID(2))) {
            try workspace.addPane(toProject: sequentialID(9), folder: "/x", id: sequentialID(2))
        }
    }

    @Test func setFolderAndViewModeChangeOnlyTheirField() throws {
        var workspace = sampleWorkspace()
        try workspace.setPaneFolder(sequentialID(2), to: "/elsewhere")
        try workspace.setViewMode(.columns, ofPane: sequentialID(2))
        var expected = sampleWorkspace()
        expected.projects[0].panes[0].folder = "/elsewhere"
        expected.projects[0].panes[0].viewMode = .columns
        #expect(workspace == expected)
    }

    @Test func setFolderAndViewModeValidate() {
        var workspace = sampleWorkspace()
        #expect(throws: WorkspaceError.notFound(kind: .pane, id: sequentialID(7))) {
            try workspace.setPaneFolder(sequentialID(7), to: "/x")
        }
        #expect(throws: WorkspaceError.invalid(field: "folder", reason: "must not contain NUL")) {
            try workspace.setPaneFolder(sequentialID(2), to: "/a\u{0}b")
        }
        #expect(throws: WorkspaceError.notFound(kind: .pane, id: sequentialID(7))) {
            try workspace.setViewMode(.list, ofPane: sequentialID(7))
        }
        #expect(throws: WorkspaceError.self) {
            try workspace.setViewMode(ViewMode(rawValue: "x"), ofPane: sequentialID(2))
        }
        #expect(workspace == sampleWorkspace())
    }

    @Test func removePaneRemovesItAndItsTabs() throws {
        var workspace = sampleWorkspace()
        try workspace.removePane(sequentialID(2))
        #expect(workspace.projects[0].panes.isEmpty)
        #expect(workspace.tab(sequentialID(3)) == nil)
        #expect(throws: WorkspaceError.notFound(kind: .pane, id: sequentialID(2))) {
            try workspace.removePane(sequentialID(2))
        }
    }
}
