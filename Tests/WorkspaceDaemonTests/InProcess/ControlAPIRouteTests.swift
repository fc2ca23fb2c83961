import Foundation
import NIOHTTP1
import Testing
import UnixHTTP

/// Every route of the control API in memory: success and refusals (docs/api.md).
@Suite("Control API routes, in process")
struct ControlAPIRouteTests {
    @Test func statusAndWorkspaceReadTheState() async throws {
        let api = try InProcessAPI()
        let status = await api.send(.GET, "/v1/status")
        #expect(status.status == .ok)
        #expect(status.json["schemaVersion"] as? Int == 4 && status.json["revision"] as? Int == 0)
        let workspace = await api.send(.GET, "/v1/workspace")
        #expect(workspace.status == .ok && workspace.headers.first(name: "ETag") == "\"\(api.state.lineage).0\"")
        #expect(((workspace.json["workspace"] as? [String: Any])?["projects"] as? [Any])?.isEmpty == true)
    }

    @Test func projectsAreCreatedReadRenamedAndDeleted() async throws {
        let api = try InProcessAPI()
        let created = await api.send(.POST, "/v1/projects", #"{"name": "Website", "layout": "split"}"#)
        #expect(created.status == .created && created.json["revision"] as? Int == 1)
        let id = try #require(created.value["id"] as? String)
        #expect(await api.send(.GET, "/v1/projects/\(id)").json["name"] as? String == "Website")
        #expect(await api.send(.GET, "/v1/projects").array.count == 1)
        let renamed = await api.send(.PATCH, "/v1/projects/\(id)", #"{"name": "Site"}"#)
        #expect(renamed.status == .ok && renamed.value["name"] as? String == "Site")
        #expect(await api.send(.PUT, "/v1/active-project", #"{"projectID": "\#(id)"}"#).status == .ok)
        #expect(
            (await api.send(.GET, "/v1/active-project").json["projectID"] as? String)?.lowercased() == id.lowercased())
        #expect(await api.send(.DELETE, "/v1/projects/\(id)").status == .ok)
        #expect(await api.send(.GET, "/v1/projects/\(id)").status == .notFound)
        #expect(api.state.snapshot.revision == 4)
    }

    @Test func panesTabsFavoritesAndTheOwner() async throws {
        let api = try InProcessAPI()
        let project = try #require(
            await api.send(.POST, "/v1/projects", #"{"name": "P", "layout": "quad"}"#).value["id"] as? String)
        let pane = await api.send(.POST, "/v1/projects/\(project)/panes", #"{"folder": "/src"}"#)
        #expect(pane.status == .created)
        let paneID = try #require(pane.value["id"] as? String)
        #expect(await api.send(.PATCH, "/v1/panes/\(paneID)", #"{"viewMode": "icons"}"#).status == .ok)
        let tab = await api.send(.POST, "/v1/panes/\(paneID)/tabs", #"{"folder": "/src/a"}"#)
        #expect(tab.status == .created)
        let tabID = try #require(tab.value["id"] as? String)
        #expect(await api.send(.POST, "/v1/tabs/\(tabID)/focus").status == .ok)
        #expect(await api.send(.DELETE, "/v1/tabs/\(tabID)").status == .ok)
        #expect(await api.send(.DELETE, "/v1/panes/\(paneID)").status == .ok)
        let favorite = await api.send(.POST, "/v1/favorites", #"{"name": "Home", "path": "/home/ada"}"#)
        #expect(favorite.status == .created)
        #expect(await api.send(.GET, "/v1/favorites").array.count == 1)
        let favoriteID = try #require(favorite.value["id"] as? String)
        #expect(await api.send(.DELETE, "/v1/favorites/\(favoriteID)").status == .ok)
        #expect(await api.send(.PATCH, "/v1/owner", #"{"alias": "Ada"}"#).status == .ok)
        #expect(await api.send(.GET, "/v1/owner").json["alias"] as? String == "Ada")
    }

    @Test(arguments: [
        ("POST", "/v1/projects", #"{"name": "", "layout": "split"}"#, 400, "invalid_field"),
        ("POST", "/v1/projects", #"{"name": "A", "layout": "split", "color": 1}"#, 400, "unknown_field"),
        ("POST", "/v1/projects", "[1, 2]", 400, "invalid_json"),
        ("POST", "/v1/projects", "{", 400, "invalid_json"),
        ("GET", "/v1/projects/not-a-uuid", "", 400, "invalid_field"),
        ("GET", "/v1/projects/11111111-1111-4111-8111-111111111111", "", 404, "not_found"),
        ("DELETE", "/v1/favorites/11111111-1111-4111-8111-111111111111", "", 404, "not_found"),
        ("PUT", "/v1/status", "", 405, "method_not_allowed"),
        ("GET", "/v1/nothing", "", 404, "not_found"),
        ("POST", "/v1/flush", #"{"a": 1}"#, 400, "invalid_json"),
        ("POST", "/v1/projects?durable=maybe", #"{"name": "A", "layout": "split"}"#, 400, "invalid_parameter"),
    ])
    func malformedRequestsGetA4xxWithAJSONErrorAndChangeNothing(
        method: String, uri: String, body: String, status: Int, code: String
    ) async throws {
        let api = try InProcessAPI()
        let response = await api.send(HTTPMethod(rawValue: method), uri, body.isEmpty ? nil : body)
        #expect(response.status.code == status, "\(String(decoding: response.body, as: UTF8.self))")
        #expect(response.errorCode == code)
        #expect(api.state.snapshot.revision == 0, "nothing changed")
    }

    @Test func ifMatchAppliesOnlyToTheStateItsETagNames() async throws {
        let api = try InProcessAPI()
        let read = await api.send(.GET, "/v1/workspace")
        let etag = try #require(read.headers.first(name: "ETag"))
        #expect(etag == "\"\(api.state.lineage).0\"")
        #expect(read.json["etag"] as? String == "\(api.state.lineage).0")
        let first = await api.send(
            .POST, "/v1/favorites", #"{"name": "A", "path": "/a"}"#, headers: [("If-Match", etag)])
        #expect(first.status == .created)
        #expect(first.headers.first(name: "ETag") == "\"\(api.state.lineage).1\"")
        #expect(first.json["etag"] as? String == "\(api.state.lineage).1")
        let stale = await api.send(
            .POST, "/v1/favorites", #"{"name": "B", "path": "/b"}"#, headers: [("If-Match", etag)])
        #expect(stale.status == .preconditionFailed && stale.errorCode == "revision_mismatch")
        #expect(stale.headers.first(name: "ETag") == "\"\(api.state.lineage).1\"", "the 412 names the current state")
        #expect(api.state.snapshot.revision == 1 && api.state.read { $0.favorites.count } == 1)
        let bad = await api.send(.POST, "/v1/favorites", #"{"name": "B", "path": "/b"}"#, headers: [("If-Match", "x")])
        #expect(bad.status == .badRequest && bad.errorCode == "invalid_parameter")
        let weak = await api.send(
            .POST, "/v1/favorites", #"{"name": "B", "path": "/b"}"#,
            headers: [("If-Match", "W/\"\(api.state.lineage).1\"")])
        #expect(weak.status == .created)
        let listed = await api.send(
            .POST, "/v1/favorites", #"{"name": "C", "path": "/c"}"#,
            headers: [("If-Match", "\"ffff.9\", \"\(api.state.lineage).2\"")])
        #expect(listed.status == .created, "a list matches when any of its tags does")
        #expect(api.state.snapshot.revision == 3)
    }

    @Test(arguments: ["\"3\"", "3", "W/\"3\""])
    func aBareRevisionNumberNamesNoStateAndIsRefused(header: String) async throws {
        let api = try InProcessAPI()
        for index in 0..<3 {
            #expect(await api.send(.POST, "/v1/favorites", #"{"name": "F\#(index)", "path": "/f"}"#).status == .created)
        }
        #expect(api.state.snapshot.revision == 3)
        let refused = await api.send(
            .POST, "/v1/favorites", #"{"name": "X", "path": "/x"}"#, headers: [("If-Match", header)])
        #expect(refused.status == .preconditionFailed && refused.errorCode == "revision_mismatch")
        let message = try #require((refused.json["error"] as? [String: Any])?["message"] as? String)
        #expect(message.contains("without its lineage"), "\(message)")
        #expect(api.state.snapshot.revision == 3, "nothing changed")
    }

    @Test func aBodyOverTheLimitIs413AndChangesNothing() async throws {
        let api = try InProcessAPI(maximumBodySize: 64)
        let name = String(repeating: "n", count: 100)
        let response = await api.send(.POST, "/v1/projects", #"{"name": "\#(name)", "layout": "split"}"#)
        #expect(response.status == .payloadTooLarge && response.errorCode == "body_too_large")
        #expect(api.state.snapshot.revision == 0)
        #expect(await api.send(.POST, "/v1/favorites", #"{"name": "A", "path": "/a"}"#).status == .created)
    }

    @Test func aPlainChangeIsAcknowledgedBeforeItIsOnDiskAndSavedWhenTheDebounceEnds() async throws {
        let api = try InProcessAPI()
        let response = await api.send(.POST, "/v1/favorites", #"{"name": "A", "path": "/a"}"#)
        #expect(response.status == .created && response.json["durableRevision"] is NSNull)
        #expect(api.onDisk() == nil, "no timed save has run")
        api.scheduler.advance(by: .milliseconds(499))
        #expect(!api.state.status.isSaving && api.state.status.durableRevision == 0, "the debounce is 500 ms")
        api.scheduler.advance(by: .milliseconds(1))
        let started = api.state.status
        try #require(started.isSaving || started.durableRevision == 1, "the debounce timer started the save")
        try await api.state.waitUntilDurable(1)
        #expect((api.onDisk()?["favorites"] as? [Any])?.count == 1)
    }
}
