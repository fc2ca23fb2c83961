import Foundation
import Testing
import UnixHTTP

@Suite("workspacectl: id prefixes and options before the subcommand, against a stub daemon")
struct WorkspacectlIDPrefixTests {
    /// Two projects whose ids start with `3f25`, one pane, one tab, one favorite.
    static let betaID = "3f25aaaa-0000-4000-8000-000000000002"
    static let workspace = """
        {"revision": 9, "etag": "ab12.9", "workspace": {"projects": [\(Sample.project),
         {"id": "\(betaID)", "name": "Beta", "layout": "single", "panes": []}],
         "favorites": [\(Sample.favorite)], "activeProjectID": null, "owner": \(Sample.owner)}}
        """

    /// A stub answering `GET /v1/workspace` with ``workspace``, the other reads with their record, and every change
    /// with an accepted change.
    static func stub() async throws -> StubDaemon {
        try await StubDaemon { request in
            let body: String
            switch (request.method, request.path) {
            case ("GET", "/v1/workspace"): body = workspace
            case ("GET", "/v1/owner"): body = Sample.owner
            case ("GET", _): body = Sample.project
            default: body = Sample.change()
            }
            return HTTPResponse.json(.ok, body: Array(body.utf8))
        }
    }

    @Test("a unique prefix is resolved with one GET, then the change is sent for the full id")
    func uniquePrefix() async throws {
        let (result, requests) = try await withStub(try await Self.stub()) { stub in
            (try await workspacectl(["project", "rename", "3F2504", "New"], socket: stub.socketPath), stub.requests)
        }
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("renamed project \(Sample.projectID) at revision 8"))
        #expect(
            requests.map { "\($0.method) \($0.target)" } == [
                "GET /v1/workspace", "PATCH /v1/projects/\(Sample.projectID)",
            ])
    }

    @Test("each id argument resolves among its own kind: panes, tabs, favorites, the active project")
    func everyKind() async throws {
        let cases: [([String], String)] = [
            (["tab", "open", "9b2c", "/srv/b"], "POST /v1/panes/\(Sample.paneID)/tabs"),
            (["pane", "set", "9b2c1a47-5c", "--view-mode", "list"], "PATCH /v1/panes/\(Sample.paneID)"),
            (["tab", "focus", "0d4b"], "POST /v1/tabs/\(Sample.tabID)/focus"),
            (["favorite", "remove", "6a1f"], "DELETE /v1/favorites/\(Sample.favoriteID)"),
            (["active", "set", "3f25a"], "PUT /v1/active-project"),
            (["pane", "add", "3f25aa", "/srv"], "POST /v1/projects/\(Self.betaID)/panes"),
        ]
        for (arguments, expected) in cases {
            let (result, requests) = try await withStub(try await Self.stub()) { stub in
                (try await workspacectl(arguments, socket: stub.socketPath), stub.requests)
            }
            #expect(result.status == 0, "\(arguments): \(result.output)")
            #expect(requests.map { "\($0.method) \($0.target)" } == ["GET /v1/workspace", expected], "\(arguments)")
            if arguments[0] == "active" {
                #expect(requests.last?.json == ["projectID": Self.betaID])
            }
        }
    }

    @Test("a full id is sent as given, without reading the workspace first")
    func fullID() async throws {
        let (result, requests) = try await withStub(try await Self.stub()) { stub in
            (try await workspacectl(["tab", "close", Sample.tabID], socket: stub.socketPath), stub.requests)
        }
        #expect(result.status == 0)
        #expect(requests.map { "\($0.method) \($0.target)" } == ["DELETE /v1/tabs/\(Sample.tabID)"])
    }

    @Test("an ambiguous prefix exits 64 listing the matching ids and names, and changes nothing")
    func ambiguous() async throws {
        let (result, requests) = try await withStub(try await Self.stub()) { stub in
            (try await workspacectl(["project", "delete", "3f25"], socket: stub.socketPath), stub.requests)
        }
        #expect(result.status == 64)
        #expect(result.output.contains("the id prefix 3f25 is ambiguous"), "\(result.output)")
        #expect(result.output.contains("\(Sample.projectID)  Alpha"))
        #expect(result.output.contains("\(Self.betaID)  Beta"))
        #expect(requests.map(\.method) == ["GET"])
    }

    @Test("a prefix matching nothing is not found (exit 1), with the not_found body under --json")
    func noMatch() async throws {
        let (result, requests) = try await withStub(try await Self.stub()) { stub in
            (try await workspacectl(["--json", "favorite", "remove", "beef"], socket: stub.socketPath), stub.requests)
        }
        #expect(result.status == 1)
        #expect(result.output.contains("no favorite with an id starting with beef"))
        let body = result.output.split(separator: "\n").filter { !$0.hasPrefix("workspacectl:") }
            .joined(separator: "\n")
        let parsed = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: [String: Any]]
        #expect(parsed?["error"]?["code"] as? String == "not_found")
        #expect(parsed?["error"]?["field"] as? String == "id")
        #expect(requests.map(\.method) == ["GET"])
    }

    @Test("a prefix too short or not hex is a usage error and nothing is sent")
    func malformedPrefix() async throws {
        for id in ["3f2", "3f2g"] {
            let (result, requests) = try await withStub(try await Self.stub()) { stub in
                (try await workspacectl(["project", "show", id], socket: stub.socketPath), stub.requests)
            }
            #expect(result.status == 64, "\(id)")
            #expect(requests.isEmpty)
        }
    }

    @Test("the connection options work before the subcommand too; the one after wins")
    func optionsBeforeTheSubcommand() async throws {
        let (result, requests) = try await withStub(try await Self.stub()) { stub in
            let result = try await workspacectl(
                ["--socket", stub.socketPath, "--json", "project", "show", "3f2504", "--timeout", "10"],
                socket: "/nonexistent.sock")
            return (result, stub.requests)
        }
        #expect(result.status == 0, "\(result.output)")
        let parsed = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        #expect(parsed?["name"] as? String == "Alpha")
        #expect(requests.map(\.target) == ["/v1/workspace", "/v1/projects/\(Sample.projectID)"])

        let overridden = try await withStub(try await Self.stub()) { stub in
            try await workspacectl(
                ["--socket", "/nonexistent.sock", "owner", "--socket", stub.socketPath], socket: nil)
        }
        #expect(overridden.status == 0, "\(overridden.output)")
    }
}
