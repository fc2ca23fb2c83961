import Foundation
import Testing

@testable import WorkspaceModel

/// Going back in time in the model: a project put back as a past state held it, and the changes that carry a
/// whole workspace or one project.
@Suite("Restoring the past")
struct RestoreMutationTests {
    /// The sample workspace with a second project (id 6, no panes) after the first.
    static func twoProjects() -> Workspace {
        var workspace = sampleWorkspace()
        workspace.projects.append(Project(id: sequentialID(6), name: "Six", layout: .single))
        return workspace
    }

    @Test func aProjectThatStillExistsIsReplacedWhereItIsWithItsPanesAndTabs() throws {
        let past = Self.twoProjects()
        var workspace = past
        try workspace.renameProject(sequentialID(1), to: "Renamed")
        try workspace.closeTab(sequentialID(3))
        try workspace.addPane(toProject: sequentialID(1), folder: "/new", id: sequentialID(9))
        // The index given is where it was; a project that still exists keeps the place it has now.
        try workspace.restoreProject(past.projects[0], at: 1)
        #expect(workspace == past)
    }

    @Test func aDeletedProjectIsInsertedAtItsIndexClampedToTheList() throws {
        let past = Self.twoProjects()
        var workspace = past
        try workspace.deleteProject(sequentialID(1))
        try workspace.restoreProject(past.projects[0], at: 0)
        #expect(workspace.projects.map(\.id) == [sequentialID(1), sequentialID(6)])
        #expect(workspace.project(sequentialID(1)) == past.projects[0], "with its panes and tabs")

        var shorter = past
        try shorter.deleteProject(sequentialID(6))
        try shorter.deleteProject(sequentialID(1))
        try shorter.restoreProject(past.projects[1], at: 1)
        #expect(shorter.projects.map(\.id) == [sequentialID(6)], "an index past the end puts it last")
        try shorter.restoreProject(past.projects[0], at: -3)
        #expect(shorter.projects.map(\.id) == [sequentialID(1), sequentialID(6)], "a negative index puts it first")
    }

    @Test func theActiveProjectStaysValid() throws {
        let past = Self.twoProjects()
        var workspace = past
        try workspace.deleteProject(sequentialID(1))
        #expect(workspace.activeProjectID == nil)
        try workspace.restoreProject(past.projects[0], at: 0)
        #expect(workspace.activeProjectID == nil, "restoring a project does not make it active")
        try workspace.setActiveProject(sequentialID(6))
        try workspace.restoreProject(past.projects[1], at: 1)
        #expect(workspace.activeProjectID == sequentialID(6), "replacing the active project keeps it active")
    }

    @Test func aPaneOrTabIDAnotherProjectHoldsNowIsAConflictAndChangesNothing() throws {
        let past = sampleWorkspace()
        var paneTaken = past
        try paneTaken.deleteProject(sequentialID(1))
        paneTaken.projects.append(
            Project(
                id: sequentialID(7), name: "Seven", layout: .single,
                panes: [Pane(id: sequentialID(2), folder: "/seven", viewMode: .list)]))
        let before = paneTaken
        #expect(throws: WorkspaceError.conflict(kind: .pane, id: sequentialID(2), usedBy: sequentialID(7))) {
            try paneTaken.restoreProject(past.projects[0], at: 0)
        }
        #expect(paneTaken == before)

        var tabTaken = past
        try tabTaken.createProject(name: "Seven", layout: .single, id: sequentialID(7))
        try tabTaken.addPane(toProject: sequentialID(7), folder: "/seven", id: sequentialID(8))
        tabTaken.projects[1].panes[0].tabs = [Tab(id: sequentialID(4), folder: "/seven/b")]
        let tabBefore = tabTaken
        #expect(throws: WorkspaceError.conflict(kind: .tab, id: sequentialID(4), usedBy: sequentialID(7))) {
            try tabTaken.restoreProject(past.projects[0], at: 0)
        }
        #expect(tabTaken == tabBefore)
        #expect(
            WorkspaceError.conflict(kind: .tab, id: sequentialID(4), usedBy: sequentialID(7)).description
                == "the tab 00000000-0000-4000-8000-000000000004 belongs to the project "
                + "00000000-0000-4000-8000-000000000007 now")
    }

    @Test func theRestoreChangesApplyAndValidateBeforeMutating() throws {
        let past = Self.twoProjects()
        var workspace = past
        try workspace.deleteProject(sequentialID(6))
        try workspace.setOwnerAlias("someone else")
        let restoreAll = WorkspaceChange.restoreWorkspace(workspace: past)
        #expect(restoreAll.validatesBeforeMutating)
        var restored = workspace
        try restoreAll.apply(to: &restored)
        #expect(restored == past, "the whole workspace, owner and all")

        let restoreOne = WorkspaceChange.restoreProject(project: past.projects[1], index: 1)
        #expect(restoreOne.validatesBeforeMutating)
        try restoreOne.apply(to: &workspace)
        #expect(workspace.projects == past.projects)
        #expect(workspace.owner.alias == "someone else", "the rest of the workspace is left as it is")
    }
}
