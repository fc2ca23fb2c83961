import Foundation
import TestSupport
import Testing
import UnixHTTP

@Suite("workspacectl against a stub daemon")
struct WorkspacectlTests {
    @Test("a missing socket exits 69 with a hint to check the service")
    func unreachable() async throws {
        let result = try await workspacectl(["status"], socket: "/tmp/wctl-none-\(UUID().uuidString.prefix(8)).sock")
        #expect(result.status == 69)
        #expect(result.output.contains("systemctl status workspaced"))
        #expect(result.output.contains("systemctl start workspaced.socket"))
        #expect(result.output.contains("wctl-none-"))
    }

    /// What a client of a socket-activated daemon that fails to start sees: the connection is accepted into the
    /// queue and then reset. Nothing answered, so 69 with the hint, not 76 (an unexpected answer).
    @Test("a connection reset before any answer exits 69 with the hint")
    func resetBeforeAnswer() async throws {
        let listener = try ResettingListener(path: "/tmp/wctl-reset-\(UUID().uuidString.prefix(8)).sock")
        async let reset: Void = listener.resetOneConnection()
        let result = try await workspacectl(["status"], socket: listener.path)
        await reset
        #expect(result.status == 69, "\(result.output)")
        #expect(result.output.contains("before any response"), "\(result.output)")
        #expect(result.output.contains("systemctl status workspaced"))
    }

    @Test("a refusal exits 1 and prints the daemon's message and field")
    func refused() async throws {
        let stub = try await StubDaemon(
            status: .notFound, json: Sample.error("not_found", "no project has this id", field: "id"))
        let result = try await withStub(stub) {
            try await workspacectl(["project", "rename", Sample.projectID, "New"], socket: $0.socketPath)
        }
        #expect(result.status == 1)
        #expect(result.output.contains("no project has this id"))
        #expect(result.output.contains("field: id"))
        #expect(result.output.contains("404"))
    }

    @Test("--json prints the answer as valid JSON")
    func jsonOutput() async throws {
        let stub = try await StubDaemon(json: "[\(Sample.project)]")
        let result = try await withStub(stub) {
            try await workspacectl(["project", "list", "--json"], socket: $0.socketPath)
        }
        #expect(result.status == 0)
        let parsed = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]]
        #expect(parsed?.first?["name"] as? String == "Alpha")
        #expect(parsed?.first?["id"] as? String == Sample.projectID)
    }

    @Test("--json prints a refusal's error body as valid JSON too")
    func jsonRefusal() async throws {
        let stub = try await StubDaemon(status: .preconditionFailed, json: Sample.error("revision_mismatch", "moved"))
        let result = try await withStub(stub) {
            try await workspacectl(
                ["favorite", "add", "--json", "--if-match", "ab12.3", "Home", "/home/x"], socket: $0.socketPath)
        }
        #expect(result.status == 1)
        let jsonPart = result.output.split(separator: "\n").filter { !$0.hasPrefix("workspacectl:") }
            .joined(separator: "\n")
        let parsed = try JSONSerialization.jsonObject(with: Data(jsonPart.utf8)) as? [String: [String: Any]]
        #expect(parsed?["error"]?["code"] as? String == "revision_mismatch")
    }

    @Test("--durable and --if-match become ?durable=true and If-Match")
    func changeFlags() async throws {
        let stub = try await StubDaemon(json: Sample.change(Sample.favorite, durable: "8"))
        let (result, requests) = try await withStub(stub) { stub in
            let result = try await workspacectl(
                ["favorite", "add", "--durable", "--if-match", "ab12.7", "Home", "/home/x"], socket: stub.socketPath)
            return (result, stub.requests)
        }
        #expect(result.status == 0)
        #expect(result.output.contains("revision 8, durable 8 (ETag ab12.8)"))
        #expect(requests.map(\.target) == ["/v1/favorites?durable=true"])
        #expect(requests.first?.ifMatch == "\"ab12.7\"")
        #expect(requests.first?.json == ["name": "Home", "path": "/home/x"])
    }

    @Test("--if-match takes an ETag: a bare revision number is a usage error")
    func bareRevisionIsRefused() async throws {
        let stub = try await StubDaemon(json: Sample.change(Sample.favorite))
        let (result, requests) = try await withStub(stub) { stub in
            let result = try await workspacectl(
                ["favorite", "add", "--if-match", "7", "Home", "/home/x"], socket: stub.socketPath)
            return (result, stub.requests)
        }
        #expect(result.status == 64)
        #expect(result.output.contains("--if-match"), "\(result.output)")
        #expect(requests.isEmpty, "nothing was sent")
    }

    @Test("status shows versions, state file, revisions, dirty, last save and error, uptime")
    func statusLayout() async throws {
        let stub = try await StubDaemon(json: Sample.status)
        let result = try await withStub(stub) { try await workspacectl(["status"], socket: $0.socketPath) }
        #expect(result.status == 0)
        for expected in [
            "workspaced 1.4.0", "schema version 4", "/var/lib/workspaced/workspace.json", "42 (durable 40)",
            "2 revision(s) not yet on disk", "2026-11-22T03:00:00Z", "12.5 ms", "disk full", "1h 2m 3s",
            "from revision 12 (2026-11-21T03:00:00Z", "2 snapshot(s) and 6 segment(s), 123456 of 67108864 bytes",
            "kept 7d 0h 0m 0s", "/var/lib/workspaced/workspace.json.history",
            "DAMAGED /var/lib/workspaced/workspace.json.history/segment.13: bad checksum",
        ] {
            #expect(result.output.contains(expected), "missing \(expected) in:\n\(result.output)")
        }
    }

    @Test("--socket wins over WORKSPACED_SOCKET")
    func socketFlag() async throws {
        let stub = try await StubDaemon(json: Sample.owner)
        let result = try await withStub(stub) {
            try await workspacectl(["owner", "show", "--socket", $0.socketPath], socket: "/nonexistent.sock")
        }
        #expect(result.status == 0)
        #expect(result.output.contains("ana <ana@example.org>"))
    }

    @Test("a malformed id is refused locally (usage error, nothing sent)")
    func malformedID() async throws {
        let stub = try await StubDaemon(json: Sample.change())
        let (result, requests) = try await withStub(stub) { stub in
            (try await workspacectl(["tab", "close", "not-a-uuid"], socket: stub.socketPath), stub.requests)
        }
        #expect(result.status == 64)
        #expect(requests.isEmpty)
    }

    @Test("completion scripts come from argument-parser")
    func completions() async throws {
        let result = try await workspacectl(["--generate-completion-script", "bash"], socket: nil)
        #expect(result.status == 0)
        #expect(result.output.contains("favorite"))
    }
}
