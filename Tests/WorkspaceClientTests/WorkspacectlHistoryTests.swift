import Foundation
import Testing
import UnixHTTP

/// `workspacectl history`, `show --at`, `restore` and `undo` against a stub daemon: the requests each sends and
/// what it prints.
@Suite("workspacectl history, show --at, restore and undo")
struct WorkspacectlHistoryTests {
    /// A stub answering the status, the workspace, the history (`history`, the page it gives) and any change.
    static func stub(history: String = Sample.history) async throws -> StubDaemon {
        try await StubDaemon { request in
            let body: String
            switch (request.method, request.path) {
            case ("GET", "/v1/status"): body = Sample.status
            case ("GET", "/v1/workspace"): body = Sample.workspace
            case ("GET", "/v1/history"): body = history
            case (_, let path) where path.hasSuffix("/restore") && path.hasPrefix("/v1/projects/"):
                body = Sample.change(Sample.project)
            default: body = Sample.change()
            }
            return HTTPResponse.json(.ok, body: Array(body.utf8))
        }
    }

    @Test("history sends since, limit and the project, and prints one line per change")
    func history() async throws {
        let (result, requests) = try await withStub(try await Self.stub()) { stub in
            let result = try await workspacectl(
                ["history", "--since", "7", "--limit", "5", "--project", Sample.projectID], socket: stub.socketPath)
            return (result, stub.requests)
        }
        #expect(result.status == 0, "\(result.output)")
        #expect(requests.map(\.target) == ["/v1/history?limit=5&record=\(Sample.projectID)&since=7"])
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "8  2026-11-22T03:00:00Z  project.update  \(Sample.projectID)  uid 1000 pid 4242",
                "9  -  workspace.restore  -  -",
            ], "\(result.output)")
    }

    @Test("history --project with a prefix resolves it against the workspace first")
    func historyPrefix() async throws {
        let requests = try await withStub(try await Self.stub()) { stub in
            let result = try await workspacectl(["history", "--project", "3f25"], socket: stub.socketPath)
            #expect(result.status == 0, "\(result.output)")
            return stub.requests
        }
        #expect(requests.map(\.target) == ["/v1/workspace", "/v1/history?record=\(Sample.projectID)"])
    }

    @Test("history says what the limit left off")
    func historyMore() async throws {
        let more = Sample.history.replacingOccurrences(of: #""hasMore": false"#, with: #""hasMore": true"#)
        let result = try await withStub(try await Self.stub(history: more)) {
            try await workspacectl(["history", "--limit", "2"], socket: $0.socketPath)
        }
        #expect(result.output.contains("older changes before revision 8: --since 3"), "\(result.output)")
    }

    @Test("show --at reads the workspace at that revision")
    func showAt() async throws {
        let (result, requests) = try await withStub(try await Self.stub()) { stub in
            (try await workspacectl(["show", "--at", "4"], socket: stub.socketPath), stub.requests)
        }
        #expect(result.status == 0 && result.output.contains("Alpha"), "\(result.output)")
        #expect(requests.map(\.target) == ["/v1/workspace?at=4"])
    }

    @Test("restore sends the revision, --durable and --if-match; --project restores one project")
    func restore() async throws {
        let (results, requests) = try await withStub(try await Self.stub()) { stub in
            let whole = try await workspacectl(
                ["restore", "--at", "3", "--durable", "--if-match", "ab12.9"], socket: stub.socketPath)
            let project = try await workspacectl(
                ["restore", "--at", "3", "--project", "3f25"], socket: stub.socketPath)
            return ([whole, project], stub.requests)
        }
        #expect(results.map(\.status) == [0, 0], "\(results.map(\.output))")
        #expect(results[0].output.contains("restored the workspace of revision 3 at revision 8"))
        #expect(results[1].output.contains("restored project \(Sample.projectID) (Alpha) as at revision 3"))
        #expect(
            requests.map(\.target) == [
                "/v1/restore?durable=true", "/v1/workspace?at=3", "/v1/projects/\(Sample.projectID)/restore",
            ], "a prefix is resolved in the workspace of that revision")
        #expect(requests[0].ifMatch == "\"ab12.9\"" && requests[0].json == ["at": 3] as NSDictionary)
        #expect(requests[2].json == ["at": 3] as NSDictionary)
    }

    @Test("undo restores the revision before the newest change, guarded by the current ETag")
    func undo() async throws {
        let (result, requests) = try await withStub(try await Self.stub()) { stub in
            (try await workspacectl(["undo"], socket: stub.socketPath), stub.requests)
        }
        #expect(result.status == 0, "\(result.output)")
        #expect(requests.map(\.target) == ["/v1/status", "/v1/history?limit=1", "/v1/restore"])
        #expect(requests[2].json == ["at": 8] as NSDictionary && requests[2].ifMatch == "\"ab12.9\"")
        #expect(result.output.contains("undid revision 9 (workspace.restore) by restoring revision 8"))
    }

    @Test("undo with nothing in the history changes nothing and exits 1")
    func undoNothing() async throws {
        let empty = #"{"entries": [], "oldestRevision": 9, "currentRevision": 9, "hasMore": false}"#
        let (result, requests) = try await withStub(try await Self.stub(history: empty)) { stub in
            (try await workspacectl(["undo"], socket: stub.socketPath), stub.requests)
        }
        #expect(result.status == 1 && result.output.contains("nothing to undo"), "\(result.output)")
        #expect(!requests.contains { $0.method == "POST" })
    }

    @Test(
        "a bad revision or limit is a usage error and sends nothing",
        arguments: [
            ["history", "--limit", "0"], ["history", "--limit", "1001"], ["history", "--since", "-1"],
            ["show", "--at", "x"], ["restore"], ["restore", "--at", "1.5"], ["undo", "--if-match", "ab12.9"],
        ])
    func usage(arguments: [String]) async throws {
        let (result, requests) = try await withStub(try await Self.stub()) { stub in
            (try await workspacectl(arguments, socket: stub.socketPath), stub.requests)
        }
        #expect(result.status == 64, "\(arguments): \(result.output)")
        #expect(requests.isEmpty)
    }
}
