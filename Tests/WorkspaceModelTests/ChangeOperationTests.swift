import Foundation
import Testing
import WorkspaceAPI

@testable import WorkspaceModel

/// What the history and the events say of each change: its operation, named as the live `change` events name it
/// (`APIRoute.changeOperation`), and the records it touched.
@Suite("Changes name their operation and records")
struct ChangeOperationTests {
    static let project = sequentialID(1)
    static let pane = sequentialID(2)
    static let tab = sequentialID(3)

    /// Every case, with the operation, record ids and event id it must give.
    static let cases: [(WorkspaceChange, String, [WorkspaceID], WorkspaceID?)] = [
        (.createProject(id: project, name: "P", layout: .split), "project.create", [project], project),
        (.updateProject(id: project, name: "Q", layout: nil), "project.update", [project], project),
        (.deleteProject(id: project), "project.delete", [project], project),
        (.setActiveProject(id: project), "active-project.set", [project], nil),
        (.setActiveProject(id: nil), "active-project.set", [], nil),
        (
            .createPane(id: pane, projectID: project, folder: "/f", viewMode: .list), "pane.create", [pane, project],
            pane
        ),
        (.updatePane(id: pane, folder: "/g", viewMode: nil), "pane.update", [pane], pane),
        (.deletePane(id: pane), "pane.delete", [pane], pane),
        (.createTab(id: tab, paneID: pane, folder: "/t"), "tab.create", [tab, pane], tab),
        (.deleteTab(id: tab), "tab.delete", [tab], tab),
        (.focusTab(id: tab), "tab.focus", [tab], tab),
        (.addFavorite(id: tab, name: "F", path: "/p", createdAt: Date()), "favorite.create", [tab], tab),
        (.deleteFavorite(id: tab), "favorite.delete", [tab], tab),
        (.updateOwner(alias: "a", email: nil), "owner.update", [], nil),
        (.restoreWorkspace(workspace: sampleWorkspace()), "workspace.restore", [], nil),
        (
            .restoreProject(project: sampleWorkspace().projects[0], index: 0), "project.restore", [sequentialID(1)],
            sequentialID(1)
        ),
    ]

    @Test func everyChangeNamesItsOperationAndRecords() {
        for (change, operation, ids, eventID) in Self.cases {
            #expect(change.operation == operation, "\(change)")
            #expect(change.route.changeOperation == operation, "\(change)")
            #expect(change.recordIDs == ids, "\(change)")
            #expect(change.eventRecordID == eventID, "\(change)")
        }
    }

    /// Each change route of the contract has a change that names it, so a new route without a case (or the
    /// reverse) shows here.
    @Test func everyChangeRouteHasAChange() {
        let named = Set(Self.cases.map(\.0.route))
        #expect(named == Set(APIRoute.changeOperations.keys))
    }
}
