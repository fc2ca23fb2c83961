import Foundation
import Testing

@testable import WorkspaceModel

@Suite("Project mutations")
struct ProjectMutationTests {
    @Test func createProjectAppendsAnEmptyProject() throws {
        var workspace = sampleWorkspace()
        let project = try workspace.createProject(name: "Two", layout: .quad, id: sequentialID(9))
        #expect(project == Project(id: sequentialID(9), name: "Two", layout: .quad))
        #expect(workspace.projects.map(\.id) == [sequentialID(1), sequentialID(9)])
        #expect(workspace.project(sequentialID(9)) == project)
    }

    @Test func createProjectRefusesAnUnknownLayoutABadNameAndATakenId() {
        var workspace = sampleWorkspace()
        #expect(
            throws: WorkspaceError.invalid(
                field: "layout", reason: #"unknown value "grid"; known: single, split, quad"#)
        ) {
            try workspace.createProject(name: "x", layout: Layout(rawValue: "grid"))
        }
        #expect(throws: WorkspaceError.invalid(field: "name", reason: "must not be empty")) {
            try workspace.createProject(name: "", layout: .single)
        }
        let upper = WorkspaceID(sequentialID(1).text.uppercased())!
        #expect(throws: WorkspaceError.alreadyExists(kind: .project, id: upper)) {
            try workspace.createProject(name: "x", layout: .single, id: upper)
        }
        #expect(workspace == sampleWorkspace(), "a refused change leaves the workspace unchanged")
    }

    @Test func renameAndSetLayoutChangeOnlyTheirField() throws {
        var workspace = sampleWorkspace()
        try workspace.renameProject(sequentialID(1), to: "Renamed")
        try workspace.setLayout(.quad, ofProject: sequentialID(1))
        var expected = sampleWorkspace()
        expected.projects[0].name = "Renamed"
        expected.projects[0].layout = .quad
        #expect(workspace == expected)
    }

    @Test func renameAndSetLayoutValidate() {
        var workspace = sampleWorkspace()
        #expect(throws: WorkspaceError.notFound(kind: .project, id: sequentialID(7))) {
            try workspace.renameProject(sequentialID(7), to: "x")
        }
        #expect(throws: WorkspaceError.self) { try workspace.renameProject(sequentialID(1), to: "a\nb") }
        #expect(throws: WorkspaceError.self) {
            try workspace.setLayout(Layout(rawValue: "hex"), ofProject: sequentialID(1))
        }
        #expect(throws: WorkspaceError.notFound(kind: .project, id: sequentialID(7))) {
            try workspace.setLayout(.single, ofProject: sequentialID(7))
        }
        #expect(workspace == sampleWorkspace())
    }

    @Test func deletingTheActiveProjectClearsTheActiveProject() throws {
        var workspace = sampleWorkspace()
        try workspace.createProject(name: "Two", layout: .single, id: sequentialID(9))
        try workspace.deleteProject(sequentialID(1))
        #expect(workspace.projects.map(\.id) == [sequentialID(9)])
        #expect(workspace.activeProjectID == nil)
        #expect(workspace.pane(sequentialID(2)) == nil, "its panes go with it")
        #expect(throws: WorkspaceError.notFound(kind: .project, id: sequentialID(1))) {
            try workspace.deleteProject(sequentialID(1))
        }
    }

    @Test func deletingAnotherProjectKeepsTheActiveProject() throws {
        var workspace = sampleWorkspace()
        try workspace.createProject(name: "Two", layout: .single, id: sequentialID(9))
        try workspace.deleteProject(sequentialID(9))
        #expect(workspace == sampleWorkspace())
    }

    @Test func setActiveProjectNeedsAnExistingProjectOrNil() throws {
        var workspace = sampleWorkspace()
        try workspace.setActiveProject(nil)
        #expect(workspace.activeProjectID == nil)
        #expect(throws: WorkspaceError.notFound(kind: .project, id: sequentialID(7))) {
            try workspace.setActiveProject(sequentialID(7))
        }
        #expect(workspace.activeProjectID == nil)
        try workspace.setActiveProject(WorkspaceID(sequentialID(1).text.uppercased())!)
        #expect(workspace.activeProjectID?.text == sequentialID(1).text, "stores the project's own id text")
    }
}
