import Dispatch
import FoundationEssentials
import NIOHTTP1
import StateStore
import UnixHTTP
import WorkspaceAPI
import WorkspaceModel

extension ControlAPI {
    /// `GET /v1/history`, `POST /v1/restore` and `POST /v1/projects/{id}/restore` (docs/api.md, "History").
    func historyRoutes() -> [(APIRoute, HTTPRouter.Handler)] {
        [
            (APIRoute.history, { request in await self.respond { try await self.historyPage(request) } }),
            (
                APIRoute.restore,
                { request in
                    await self.respond {
                        try self.checkChangeOptions(request)
                        let body = try APIJSON.decode(RestoreRequest.self, from: request.body)
                        let past = try await self.workspace(at: body.at, field: "at")
                        return try await self.change(request, .restore, .restoreWorkspace(workspace: past)) { _ in
                            Empty()
                        }
                    }
                }
            ),
            (
                APIRoute.restoreProject,
                { request in
                    await self.respond {
                        let id = try self.id(request)
                        try self.checkChangeOptions(request)
                        let body = try APIJSON.decode(RestoreRequest.self, from: request.body)
                        let past = try await self.workspace(at: body.at, field: "at")
                        guard let index = past.projects.firstIndex(where: { $0.id == id }) else {
                            throw self.projectMissing(id, at: body.at)
                        }
                        return try await self.change(
                            request, .restoreProject, .restoreProject(project: past.projects[index], index: index)
                        ) { $0.project(id) }
                    }
                }
            ),
        ]
    }

    /// `GET /v1/workspace`, and with `?at=REV` the workspace as it was at that revision, tagged with it.
    func workspaceResponse(_ request: HTTPRequest) async throws -> HTTPResponse {
        let workspace: Workspace
        let revision: UInt64
        if let at = try HistoryParameters.revision(request, "at") {
            workspace = try await self.workspace(at: at, field: "at")
            revision = at
        } else {
            (workspace, revision) = state.snapshot
        }
        let tag = etag(revision: revision)
        return ok(WorkspaceResponse(etag: tag, workspace: workspace), headers: ["ETag": tag.quoted])
    }

    /// `GET /v1/history?since=&limit=&record=`: a page of the changes the history keeps, oldest first.
    private func historyPage(_ request: HTTPRequest) async throws -> HTTPResponse {
        let since = try HistoryParameters.revision(request, "since")
        let limit = try HistoryParameters.limit(request)
        let record = try HistoryParameters.record(request)
        let page = try await readHistory(field: "since") { [state] () throws(HistoryError) in
            guard let record else { return try state.changes(WorkspaceChange.self, after: since, limit: limit) }
            var filter = HistoryRecordFilter(record: record, in: try Self.workspace(state, atWalkStart: since))
            return try state.changes(
                WorkspaceChange.self, after: since, limit: limit, matching: { filter.keeps($0.change) })
        }
        return ok(
            HistoryResponse(
                entries: page.entries.map {
                    HistoryEntryResponse(
                        revision: $0.revision, time: $0.date, operation: $0.change.operation,
                        ids: $0.change.recordIDs, peer: $0.origin)
                },
                oldestRevision: page.oldestRevision, currentRevision: page.currentRevision, hasMore: page.hasMore))
    }

    /// The workspace at the revision a walk of the history starts from: `since`, else the oldest kept (or, when it
    /// was pruned meanwhile, the oldest kept then); the current one when the history holds nothing yet.
    private static func workspace(
        _ state: PersistentState<Workspace>, atWalkStart since: UInt64?
    ) throws(HistoryError) -> Workspace {
        if let since { return try state.model(atRevision: since) }
        guard let oldest = state.historyStatus?.oldestRevision else { return state.snapshot.model }
        do {
            return try state.model(atRevision: oldest)
        } catch .pruned(_, let oldestNow) {
            return try state.model(atRevision: oldestNow)
        }
    }

    /// The workspace at `revision` of the current lineage: from memory when it is the current one, else from the
    /// history (read off the cooperative pool); a refusal names the request's `field`.
    func workspace(at revision: UInt64, field: String) async throws(APIFailure) -> Workspace {
        let (current, currentRevision) = state.snapshot
        if revision == currentRevision { return current }
        return try await readHistory(field: field) { [state] () throws(HistoryError) in
            try state.model(atRevision: revision)
        }
    }

    /// Runs `read`, which reads history files and so blocks, on a Dispatch thread: the handlers run on the
    /// cooperative pool, which has one thread a core, and a read that blocked one would hold up every request.
    /// Its refusal is answered as ``APIFailure/init(_:field:)`` says.
    func readHistory<Value: Sendable>(
        field: String, _ read: @escaping @Sendable () throws(HistoryError) -> Value
    ) async throws(APIFailure) -> Value {
        let result: Result<Value, HistoryError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do throws(HistoryError) {
                    continuation.resume(returning: .success(try read()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        do {
            return try result.get()
        } catch {
            throw APIFailure(error, field: field)
        }
    }

    /// The 404 for a project the state at `revision` did not hold: one that exists now was made after it, and one
    /// that does not never existed there or since.
    private func projectMissing(_ id: WorkspaceID, at revision: UInt64) -> APIFailure {
        if state.read({ $0.project(id) }) != nil {
            return APIFailure(
                .notFound, APIErrorCode.notFound,
                "the project \(id) did not exist at revision \(revision): it was created after it", field: "at")
        }
        return APIFailure(
            .notFound, APIErrorCode.notFound, "no project with id \(id), at revision \(revision) or now", field: "id")
    }

    /// Refuses, before the history is read, a malformed `durable` or `If-Match` (400) and an `If-Match` that does
    /// not name the current state (412), as ``change(_:_:status:_:returning:)`` would after it: the answer does not
    /// depend on what the history holds, and costs no read. The change itself checks `If-Match` again, under the
    /// engine's lock, so a change that lands meanwhile is still caught.
    private func checkChangeOptions(_ request: HTTPRequest) throws(APIFailure) {
        guard let expected = try ChangeOptions(request).ifMatch else { return }
        let current = etag(revision: state.status.revision)
        guard expected.contains(where: { $0.matches(current) }) else {
            throw Self.mismatch(expected, current: current)
        }
    }
}
