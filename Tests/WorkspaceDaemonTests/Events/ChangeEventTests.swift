import Foundation
import Testing
import UnixHTTP
import WorkspaceAPI
import WorkspaceClient
import WorkspaceDaemon
import WorkspaceModel

/// Every change route publishes one `change` event with its revision, its operation name and its record; a
/// refused change publishes none.
@Suite("Change events", .timeLimit(.minutes(1)))
struct ChangeEventTests {
    @Test func everyChangeRoutePublishesItsOperationRevisionAndRecord() async throws {
        let world = try await EventsServer()
        let subscription = try #require(world.events.subscribe())
        let client = world.client
        let project = try await client.createProject(name: "p", layout: .single)
        let projectID = try #require(project.value?.id)
        let renamed = try await client.renameProject(id: projectID, name: "q")
        let pane = try await client.addPane(projectID: projectID, folder: "/srv")
        let paneID = try #require(pane.value?.id)
        let updated = try await client.updatePane(id: paneID, folder: "/srv/b")
        let tab = try await client.openTab(paneID: paneID, folder: "/srv/c")
        let tabID = try #require(tab.value?.id)
        let focused = try await client.focusTab(id: tabID)
        let closed = try await client.closeTab(id: tabID)
        let removedPane = try await client.removePane(id: paneID)
        let favorite = try await client.addFavorite(name: "f", path: "/f")
        let favoriteID = try #require(favorite.value?.id)
        let removedFavorite = try await client.removeFavorite(id: favoriteID)
        let active = try await client.setActiveProject(projectID)
        let owner = try await client.updateOwner(alias: "me")
        await #expect(throws: WorkspaceClientError.self) { _ = try await client.removePane(id: paneID) }
        let deleted = try await client.deleteProject(id: projectID)
        world.events.close()
        var events: [WorkspaceEvent] = []
        for await event in subscription { events.append(event) }
        let expected: [WorkspaceEventKind] = [
            .change(revision: project.revision, operation: "project.create", id: projectID),
            .change(revision: renamed.revision, operation: "project.update", id: projectID),
            .change(revision: pane.revision, operation: "pane.create", id: paneID),
            .change(revision: updated.revision, operation: "pane.update", id: paneID),
            .change(revision: tab.revision, operation: "tab.create", id: tabID),
            .change(revision: focused.revision, operation: "tab.focus", id: tabID),
            .change(revision: closed.revision, operation: "tab.delete", id: tabID),
            .change(revision: removedPane.revision, operation: "pane.delete", id: paneID),
            .change(revision: favorite.revision, operation: "favorite.create", id: favoriteID),
            .change(revision: removedFavorite.revision, operation: "favorite.delete", id: favoriteID),
            .change(revision: active.revision, operation: "active-project.set", id: nil),
            .change(revision: owner.revision, operation: "owner.update", id: nil),
            .change(revision: deleted.revision, operation: "project.delete", id: projectID),
        ]
        #expect(events.map(\.kind) == expected)
        #expect(events.map(\.sequence) == Array(1...UInt64(expected.count)))
        await world.stop()
    }

    @Test func everyChangeRouteHasAnOperationNameAndNoReadDoes() {
        for route in APIRoute.all {
            let changesWorkspace =
                route.method != .get && route != .flush && route != .scrub && !route.pattern.hasPrefix("/v1/tokens")
            #expect((route.changeOperation != nil) == changesWorkspace, "\(route)")
        }
        let names = APIRoute.changeOperations.values
        #expect(Set(names).count == names.count, "operation names are unique")
    }
}
