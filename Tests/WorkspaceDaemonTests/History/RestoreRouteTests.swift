import Foundation
import NIOHTTP1
import StateStore
import Testing
import WorkspaceAPI
import WorkspaceModel

@testable import WorkspaceDaemon

/// `POST /v1/restore` and `POST /v1/projects/{id}/restore`: a new revision made of a past state, a change like any
/// other (docs/api.md, "History").
@Suite("History: going back to a past state")
struct RestoreRouteTests {
    /// The workspace `GET /v1/workspace?at=` gives, decoded as a client decodes it.
    static func workspace(_ server: HistoryServer, at revision: UInt64) async throws -> Workspace {
        let read = try await server.send(.GET, "/v1/workspace?at=\(revision)")
        try #require(read.status == .ok, "\(read.text)")
        return try APICoding.decoder.decode(WorkspaceResponse.self, from: Data(read.body)).workspace
    }

    @Test func aRestoreMakesANewRevisionHoldingThePastWorkspace() async throws {
        let server = try await HistoryServer()
        let alpha = try await server.createProject("Alpha")
        let beta = try await server.createProject("Beta")
        try await server.rename(alpha, to: "Renamed")
        #expect(try await server.send(.DELETE, "/v1/projects/\(beta)").status == .ok)
        #expect(try await server.send(.PATCH, "/v1/owner", #"{"alias": "someone"}"#).status == .ok)
        let past = try await Self.workspace(server, at: 2)
        let reader = try EventReader(socketPath: server.socketPath)
        #expect(await reader.read(count: 1).first?.kind == .subscribed(revision: 5, lineage: server.lineage))

        let restored = try await server.send(
            .POST, "/v1/restore?durable=true", #"{"at": 2}"#, headers: [("If-Match", "\"\(server.lineage).5\"")])
        #expect(restored.status == .ok, "\(restored.text)")
        #expect(restored.json["revision"] as? Int == 6 && restored.json["etag"] as? String == "\(server.lineage).6")
        #expect(restored.headers.first(name: "ETag") == "\"\(server.lineage).6\"")
        #expect((restored.json["durableRevision"] as? Int ?? 0) >= 6)
        #expect(server.workspace == past, "the workspace is the one at revision 2, owner and all")
        #expect(server.workspace.project(WorkspaceID(beta)!)?.name == "Beta")

        #expect(await reader.read(count: 2).last?.kind == .change(revision: 6, operation: "workspace.restore", id: nil))
        let newest = try await server.send(.GET, "/v1/history?limit=1")
        let entry = try #require(HistoryRouteTests.entries(newest).first)
        #expect(entry["operation"] as? String == "workspace.restore" && (entry["ids"] as? [String])?.isEmpty == true)
        #expect(entry["peer"] as? String == HistoryServer.peer)
        // Going back loses nothing: the revisions after 2 are still there to go to.
        #expect(try await Self.workspace(server, at: 5).project(WorkspaceID(beta)!) == nil)
        await server.stop()
    }

    @Test func aRestoreIsGuardedByIfMatchAndChangesNothingWhenRefused() async throws {
        let server = try await HistoryServer()
        let project = try await server.createProject("One")
        try await server.rename(project, to: "Two")
        let before = server.workspace
        let stale = try await server.send(
            .POST, "/v1/restore", #"{"at": 1}"#, headers: [("If-Match", "\"\(server.lineage).1\"")])
        #expect(stale.status == .preconditionFailed && stale.errorCode == "revision_mismatch")
        #expect(stale.headers.first(name: "ETag") == "\"\(server.lineage).2\"")
        #expect(server.revision == 2 && server.workspace == before)
        await server.stop()
    }

    @Test(arguments: [
        (#"{"at": -1}"#, "invalid_field"), (#"{"at": "1"}"#, "invalid_field"), (#"{"at": 1.5}"#, "invalid_field"),
        (#"{"at": null}"#, "invalid_field"), (#"{}"#, "invalid_field"), (#"{"at": 1, "project": 2}"#, "unknown_field"),
        ("[1]", "invalid_json"), ("{", "invalid_json"),
    ])
    func aMalformedBodyIsA400AndChangesNothing(body: String, code: String) async throws {
        let server = try await HistoryServer()
        let project = try await server.createProject("One")
        try await server.rename(project, to: "Two")
        let before = server.workspace
        for target in ["/v1/restore", "/v1/projects/\(project)/restore"] {
            let response = try await server.send(.POST, target, body)
            #expect(response.status == .badRequest && response.errorCode == code, "\(target) \(body): \(response.text)")
            if code == "invalid_field" { #expect(response.errorField == "at", "\(response.text)") }
            #expect(server.revision == 2 && server.workspace == before)
        }
        await server.stop()
    }

    @Test func aMalformedIfMatchOrDurableIsA400BeforeTheHistoryIsRead() async throws {
        let server = try await HistoryServer(history: .off)
        let project = try await server.createProject("One")
        for (target, headers) in [
            ("/v1/restore", [("If-Match", "nonsense")]), ("/v1/restore?durable=maybe", []),
            ("/v1/projects/\(project)/restore", [("If-Match", "nonsense")]),
        ] {
            let response = try await server.send(.POST, target, #"{"at": 0}"#, headers: headers)
            #expect(response.status == .badRequest && response.errorCode == "invalid_parameter", "\(response.text)")
        }
        #expect(server.revision == 1)
        await server.stop()
    }

    @Test func aRestoreToARevisionTheHistoryCannotGiveIsRefusedAndChangesNothing() async throws {
        let server = try await HistoryServer()
        let project = try await server.createProject("One")
        let future = try await server.send(.POST, "/v1/restore", #"{"at": 7}"#)
        #expect(future.status == .notFound && future.errorCode == "not_found" && future.errorField == "at")
        let futureProject = try await server.send(.POST, "/v1/projects/\(project)/restore", #"{"at": 7}"#)
        #expect(futureProject.status == .notFound && futureProject.errorField == "at")
        #expect(server.revision == 1)

        let off = try await HistoryServer(history: .off)
        _ = try await off.createProject("One")
        _ = try await off.createProject("Two")
        let disabled = try await off.send(.POST, "/v1/restore", #"{"at": 1}"#)
        #expect(disabled.status == .notFound && disabled.errorCode == "history_disabled", "\(disabled.text)")
        #expect(disabled.errorMessage.contains("history.keepSeconds"))
        #expect(off.revision == 2)
        await server.stop()
        await off.stop()
    }

    @Test func aRestoreOlderThanTheHistoryKeptIsA410() async throws {
        let server = try await HistoryServer(history: HistoryConfiguration(keepSeconds: 3600, maximumByteCount: 1))
        let project = try await server.createProject("P")
        for index in 0..<5 { try await server.rename(project, to: "N\(index)") }
        try server.snapshot()
        try await server.rename(project, to: "Last")
        try server.snapshot()
        let before = server.workspace
        for target in ["/v1/restore", "/v1/projects/\(project)/restore"] {
            let response = try await server.send(.POST, target, #"{"at": 1}"#)
            #expect(response.status == .gone && response.errorCode == "history_pruned", "\(response.text)")
            #expect(response.errorMessage.contains("starts at revision"), "\(response.text)")
        }
        #expect(server.revision == 7 && server.workspace == before)
        await server.stop()
    }

    @Test func aRenamedProjectGetsItsPastBackInPlaceAndADeletedOneIsUndeletedWhereItWas() async throws {
        let server = try await HistoryServer()
        let alpha = try await server.createProject("Alpha")  // 1
        let pane = try await server.send(.POST, "/v1/projects/\(alpha)/panes", #"{"folder": "/srv"}"#)  // 2
        let paneID = try #require(pane.value["id"] as? String)
        #expect(try await server.send(.POST, "/v1/panes/\(paneID)/tabs", #"{"folder": "/srv/a"}"#).status == .created)
        let beta = try await server.createProject("Beta")  // 4
        let past = try #require(server.workspace.project(WorkspaceID(alpha)!))
        try await server.rename(alpha, to: "Renamed")  // 5
        #expect(try await server.send(.DELETE, "/v1/projects/\(alpha)").status == .ok)  // 6
        try await server.rename(beta, to: "Beta 2")  // 7

        let reader = try EventReader(socketPath: server.socketPath)
        #expect(await reader.read(count: 1).first?.kind == .subscribed(revision: 7, lineage: server.lineage))
        let undeleted = try await server.send(.POST, "/v1/projects/\(alpha)/restore", #"{"at": 4}"#)
        #expect(undeleted.status == .ok, "\(undeleted.text)")
        #expect(undeleted.value["name"] as? String == "Alpha")
        #expect((undeleted.value["panes"] as? [[String: Any]])?.first?["id"] as? String == paneID)
        #expect(server.workspace.projects.map(\.id.text) == [alpha, beta], "back at its index, before Beta")
        #expect(server.workspace.project(WorkspaceID(alpha)!) == past, "with its pane and tab")
        #expect(server.workspace.project(WorkspaceID(beta)!)?.name == "Beta 2", "the rest is left as it is")
        #expect(
            await reader.read(count: 2).last?.kind
                == .change(revision: 8, operation: "project.restore", id: WorkspaceID(alpha)))

        try await server.rename(alpha, to: "Again")  // 9
        let replaced = try await server.send(.POST, "/v1/projects/\(alpha)/restore", #"{"at": 1}"#)
        #expect(replaced.status == .ok, "\(replaced.text)")
        #expect(server.workspace.projects.map(\.id.text) == [alpha, beta], "a project that exists keeps its place")
        #expect(server.workspace.project(WorkspaceID(alpha)!)?.panes.isEmpty == true, "as at revision 1")
        let newest = try await server.send(.GET, "/v1/history?limit=1&record=\(alpha)")
        let entry = try #require(HistoryRouteTests.entries(newest).first)
        #expect(entry["operation"] as? String == "project.restore" && entry["revision"] as? Int == 10)
        #expect((entry["ids"] as? [String])?.map { $0.lowercased() } == [alpha.lowercased()])
        await server.stop()
    }

    @Test func aProjectThatDidNotExistAtTheRevisionIsA404() async throws {
        let server = try await HistoryServer()
        _ = try await server.createProject("Alpha")
        let later = try await server.createProject("Later")
        let never = try await server.send(
            .POST, "/v1/projects/11111111-1111-4111-8111-111111111111/restore", #"{"at": 1}"#)
        #expect(never.status == .notFound && never.errorCode == "not_found" && never.errorField == "id")
        #expect(never.errorMessage.contains("at revision 1 or now"), "\(never.text)")
        let notYet = try await server.send(.POST, "/v1/projects/\(later)/restore", #"{"at": 1}"#)
        #expect(notYet.status == .notFound && notYet.errorField == "at")
        #expect(notYet.errorMessage.contains("created after it"), "\(notYet.text)")
        let malformed = try await server.send(.POST, "/v1/projects/nope/restore", #"{"at": 1}"#)
        #expect(malformed.status == .badRequest && malformed.errorCode == "invalid_field")
        #expect(server.revision == 2)
        await server.stop()
    }

    @Test func everyHistoryRefusalHasItsStatusAndCode() {
        let cases: [(HistoryError, HTTPResponseStatus, String, String?)] = [
            (.disabled, .notFound, "history_disabled", nil),
            (.pruned(revision: 1, oldestRevision: 9), .gone, "history_pruned", "at"),
            (.notReached(revision: 9, currentRevision: 2), .notFound, "not_found", "at"),
            (.damaged(path: "/x/w.json.history/s", reason: "bad"), .internalServerError, "history_damaged", nil),
        ]
        for (error, status, code, field) in cases {
            let failure = APIFailure(error, field: "at")
            #expect(failure.status == status && failure.error.code == code && failure.error.field == field)
            #expect(failure.error.message == error.description)
        }
        #expect(APIFailure(.pruned(revision: 1, oldestRevision: 9), field: "at").error.message.contains("revision 9"))
        #expect(
            APIFailure(.damaged(path: "/x/w.json.history/s", reason: "bad"), field: "at").error.message.contains(
                "/x/w.json.history/s"))
        let conflict = APIFailure(WorkspaceError.conflict(kind: .pane, id: WorkspaceID(), usedBy: WorkspaceID()))
        #expect(conflict.status == .conflict && conflict.error.code == "conflict")
    }
}
