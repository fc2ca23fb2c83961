import Foundation
import TestSupport
import Testing

@Suite("raw HTTP (curl --unix-socket) against the real daemon")
struct CurlEndToEndTests {
    @Test("every operation through curl, with the documented status codes")
    func everyOperation() async throws {
        let daemon = try LiveDaemon()
        try await daemon.start()

        #expect(try await curl(daemon, "GET", "/v1/status").object["statePath"] as? String == daemon.statePath)
        let workspace = try await curl(daemon, "GET", "/v1/workspace")
        #expect(workspace.status == 200 && workspace.object["revision"] as? Int == 0)

        let created = try await curl(daemon, "POST", "/v1/projects", body: #"{"name": "Alpha", "layout": "single"}"#)
        #expect(created.status == 201)
        let projectID = try #require((created.object["value"] as? [String: Any])?["id"] as? String)
        let upper = projectID.uppercased()
        #expect(try await curl(daemon, "GET", "/v1/projects").body.contains(projectID))
        #expect(try await curl(daemon, "GET", "/v1/projects/\(upper)").status == 200)
        let patched = try await curl(
            daemon, "PATCH", "/v1/projects/\(projectID)", body: #"{"name": "B", "layout": "quad"}"#)
        #expect(patched.status == 200 && (patched.object["value"] as? [String: Any])?["layout"] as? String == "quad")

        let pane = try await curl(daemon, "POST", "/v1/projects/\(projectID)/panes", body: #"{"folder": "/srv"}"#)
        #expect(pane.status == 201)
        let paneValue = try #require(pane.object["value"] as? [String: Any])
        #expect(paneValue["viewMode"] as? String == "list")
        let paneID = try #require(paneValue["id"] as? String)
        #expect(try await curl(daemon, "PATCH", "/v1/panes/\(paneID)", body: #"{"viewMode": "icons"}"#).status == 200)

        let tab = try await curl(daemon, "POST", "/v1/panes/\(paneID)/tabs", body: #"{"folder": "/srv/x"}"#)
        #expect(tab.status == 201)
        let tabID = try #require((tab.object["value"] as? [String: Any])?["id"] as? String)
        #expect(try await curl(daemon, "POST", "/v1/tabs/\(tabID)/focus").status == 200)

        let favorite = try await curl(daemon, "POST", "/v1/favorites", body: #"{"name": "Home", "path": "/home"}"#)
        #expect(favorite.status == 201)
        let favoriteID = try #require((favorite.object["value"] as? [String: Any])?["id"] as? String)
        #expect(try await curl(daemon, "GET", "/v1/favorites").body.contains(favoriteID))

        let setActive = try await curl(daemon, "PUT", "/v1/active-project", body: #"{"projectID": "\#(upper)"}"#)
        #expect(setActive.status == 200)
        let active = try await curl(daemon, "GET", "/v1/active-project")
        #expect((active.object["projectID"] as? String)?.lowercased() == projectID.lowercased())

        let owner = try await curl(daemon, "PATCH", "/v1/owner", body: #"{"alias": "ana"}"#)
        #expect(owner.status == 200)
        #expect(try await curl(daemon, "GET", "/v1/owner").object["alias"] as? String == "ana")

        let durable = try await curl(
            daemon, "POST", "/v1/favorites", body: #"{"name": "Work", "path": "/w"}"#,
            headers: ["Workspaced-Durable: true"])
        #expect(durable.status == 201)
        #expect(durable.object["durableRevision"] as? Int == durable.object["revision"] as? Int)

        #expect(try await curl(daemon, "DELETE", "/v1/tabs/\(tabID)").status == 200)
        #expect(try await curl(daemon, "DELETE", "/v1/panes/\(paneID)").status == 200)
        #expect(try await curl(daemon, "DELETE", "/v1/favorites/\(favoriteID)").status == 200)
        #expect(try await curl(daemon, "PUT", "/v1/active-project", body: #"{"projectID": null}"#).status == 200)
        #expect(try await curl(daemon, "DELETE", "/v1/projects/\(projectID)").status == 200)
        let flushed = try await curl(daemon, "POST", "/v1/flush")
        #expect(flushed.status == 200)
        #expect(daemon.idsOnDisk("projects").isEmpty)
        #expect(daemon.idsOnDisk("favorites").count == 1)
        #expect(try await curl(daemon, "GET", "/v1/nothing").status == 404)
        #expect(try await curl(daemon, "DELETE", "/v1/status").status == 405)
        await daemon.stop()
    }

    @Test("flush is always durable and reads neither durable, Workspaced-Durable nor If-Match")
    func flushTakesNoChangeParameters() async throws {
        let daemon = try LiveDaemon(debounce: 60_000, maximumDelay: 60_000)
        try await daemon.start()
        let added = try await curl(daemon, "POST", "/v1/favorites", body: #"{"name": "Home", "path": "/home"}"#)
        #expect(added.status == 201 && added.object["durableRevision"] is NSNull)
        let flushed = try await curl(
            daemon, "POST", "/v1/flush?durable=false", headers: ["Workspaced-Durable: false", "If-Match: \"999\""])
        #expect(flushed.status == 200, "\(flushed.body)")
        #expect(flushed.object["revision"] as? Int == 1)
        #expect(flushed.object["durableRevision"] as? Int == 1)
        #expect(daemon.idsOnDisk("favorites").count == 1)
        await daemon.stop()
    }

    @Test("a peer running as another uid is refused with 403 and a journal warning naming it")
    func otherUserRefused() async throws {
        let daemon = try LiveDaemon()
        try await daemon.start()
        let read = try await curl(daemon, "GET", "/v1/status", asUser: 65534)
        #expect(read.status == 403)
        #expect((read.object["error"] as? [String: Any])?["code"] as? String == "forbidden")
        let change = try await curl(daemon, "POST", "/v1/flush", asUser: 65534)
        #expect(change.status == 403)
        #expect(daemon.log.contains("uid 65534"))
        await daemon.stop()
    }
}
