import Foundation
import StateStore
import TestSupport
import Testing

@testable import WorkspaceModel

@Suite("Repairs after loading")
struct RepairTests {
    @Test func aDanglingActiveProjectBecomesNullWithAWarning() throws {
        let decoded = try decodeFixture("edge/dangling-active-project.json")
        #expect(decoded.model.activeProjectID == nil)
        #expect(decoded.repairs.count == 1)
        #expect(decoded.repairs.first?.contains("99999999-9999-4999-8999-999999999999") == true)
        let saved = try jsonObject(try workspaceCodec().encode(decoded.model))
        #expect(saved["activeProjectID"] is NSNull, "no active project is written as null")
    }

    @Test func anOutOfRangeFocusedTabIndexBecomesZeroAndAValidOneIsKept() throws {
        let decoded = try decodeFixture("edge/focused-tab-out-of-range.json")
        #expect(decoded.model.projects[0].panes.map(\.focusedTabIndex) == [0, 0, 1])
        #expect(decoded.repairs.count == 2)
        #expect(decoded.repairs[0].contains("21111111-1111-4111-8111-111111111111"))
        #expect(decoded.repairs[0].contains("focusedTabIndex 5"))
        #expect(decoded.repairs[1].contains("focusedTabIndex -1"))
    }

    @Test func repeatedIdsGetFreshOnesForTheLaterRecordWithinEachKind() throws {
        let decoded = try decodeFixture("edge/duplicate-ids.json")
        let workspace = decoded.model
        let projectID = try id("11111111-aaaa-4111-8111-111111111111")
        #expect(workspace.projects[0].id == projectID)
        #expect(workspace.projects[0].id.text == "11111111-aaaa-4111-8111-111111111111", "the first keeps its id")
        #expect(workspace.projects[1].id != projectID, "an id repeated in another letter case is a repeat")
        #expect(workspace.activeProjectID == projectID, "the active project is still the first")
        let paneIDs = workspace.projects.flatMap(\.panes).map(\.id)
        #expect(Set(paneIDs).count == 2, "pane ids are unique across projects")
        #expect(Set(workspace.projects[0].panes[0].tabs.map(\.id)).count == 2)
        #expect(workspace.favorites[0].id == projectID, "kinds do not share an id space")
        #expect(Set(workspace.favorites.map(\.id)).count == 3)
        #expect(workspace.favorites[1].id == (try id("31111111-1111-4111-8111-111111111111")))
        #expect(decoded.repairs.count == 4)
        #expect(decoded.repairs.allSatisfy { $0.contains("repeats an earlier") })
        #expect(decoded.repairs[0].hasPrefix("project id 11111111-AAAA-4111-8111-111111111111 at projects[1]"))
    }

    @Test func freshIdsSkipIdsAlreadyInUse() {
        var workspace = Workspace(
            projects: [
                Project(id: sequentialID(1), name: "a", layout: .single),
                Project(id: sequentialID(1), name: "b", layout: .single),
                Project(id: sequentialID(2), name: "c", layout: .single),
            ])
        var made = [sequentialID(2), sequentialID(1), sequentialID(3)].makeIterator()
        let messages = WorkspaceRepair.repair(&workspace) { made.next()! }
        #expect(workspace.projects.map(\.id) == [sequentialID(1), sequentialID(3), sequentialID(2)])
        #expect(messages.count == 1)
    }

    @Test func aHealthyWorkspaceNeedsNoRepair() {
        var workspace = sampleWorkspace()
        #expect(WorkspaceRepair.repair(&workspace).isEmpty)
        #expect(workspace == sampleWorkspace())
    }

    @Test func aPaneWithoutTabsFocusesZero() {
        #expect(Pane(id: sequentialID(1), folder: "/", viewMode: .list).hasValidFocus)
        #expect(!Pane(id: sequentialID(1), folder: "/", viewMode: .list, focusedTabIndex: 1).hasValidFocus)
        #expect(Pane(id: sequentialID(1), folder: "/", viewMode: .list).focusedTab == nil)
    }
}
