import Foundation
import Testing
import WorkspaceAPI
import WorkspaceClient
import WorkspaceModel

/// WorkspaceClient's history methods against the daemon's routes: what the daemon answers decodes, and a refusal
/// comes back as `.refused` with the daemon's error.
@Suite("WorkspaceClient and the history, end to end")
struct HistoryClientTests {
    @Test func theClientReadsTheHistoryAndGoesBack() async throws {
        let server = try await HistoryServer()
        let client = server.client
        let created = try await client.createProject(name: "Alpha", layout: .split)
        let id = try #require(created.value?.id)
        _ = try await client.renameProject(id: id, name: "Beta")
        let deleted = try await client.deleteProject(id: id)

        let page = try await client.history(record: id)
        #expect(page.entries.map(\.operation) == ["project.create", "project.update", "project.delete"])
        #expect(page.entries.allSatisfy { $0.ids == [id] && $0.peer == HistoryServer.peer && $0.time != nil })
        #expect(page.currentRevision == 3 && !page.hasMore)
        let past = try await client.workspace(at: 1)
        #expect(past.etag == WorkspaceETag(lineage: server.lineage, revision: 1))
        #expect(past.workspace.project(id)?.name == "Alpha")

        let undeleted = try await client.restoreProject(id: id, at: 2, ifMatch: deleted.etag)
        #expect(undeleted.value?.name == "Beta" && undeleted.revision == 4)
        let restored = try await client.restore(at: 0, durable: true, ifMatch: undeleted.etag)
        #expect(restored.revision == 5 && (restored.durableRevision ?? 0) >= 5)
        #expect(try await client.workspace().workspace.projects.isEmpty)

        // A refusal is `.refused` with the daemon's error (matched apart from the call: a typed `catch` pattern in
        // this function crashed the 6.3.1 compiler's SIL ownership verifier).
        let refusal = await Self.refusal { try await client.restore(at: 99) }
        #expect(refusal?.status == 404 && refusal?.error.code == APIErrorCode.notFound && refusal?.error.field == "at")
        await server.stop()
    }

    /// The status and error of the daemon's refusal of `call`; `nil` when it succeeded or failed otherwise.
    static func refusal<Value>(_ call: () async throws -> Value) async -> (status: Int, error: APIError)? {
        do {
            _ = try await call()
            return nil
        } catch let error as WorkspaceClientError {
            guard case .refused(let status, let apiError) = error else { return nil }
            return (status, apiError)
        } catch {
            return nil
        }
    }
}
