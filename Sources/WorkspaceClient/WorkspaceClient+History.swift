import WorkspaceAPI
import WorkspaceModel

extension WorkspaceClient {
    /// `GET /v1/history`: the changes the history keeps, oldest first: those after `since` (at most `limit`), or
    /// without it the newest `limit` (the daemon's default, 100, when `nil`; at most 1000); with `record`, only
    /// the changes that touched that record or what it holds (a project's panes and tabs, a pane's tabs).
    public func history(
        since: UInt64? = nil, limit: Int? = nil, record: WorkspaceID? = nil
    ) async throws(WorkspaceClientError) -> HistoryResponse {
        var query: [String] = []
        if let since { query.append("since=\(since)") }
        if let limit { query.append("limit=\(limit)") }
        if let record { query.append("record=\(record.text)") }
        let path = APIRoute.history.path()
        return try await call(.get, query.isEmpty ? path : path + "?" + query.joined(separator: "&"))
    }

    /// `GET /v1/workspace?at=`: the whole workspace as it was at `revision` of the current lineage, tagged with it.
    public func workspace(at revision: UInt64) async throws(WorkspaceClientError) -> WorkspaceResponse {
        try await call(.get, APIRoute.workspace.path() + "?at=\(revision)")
    }

    /// `POST /v1/restore`: a new revision whose workspace is the one at `revision`.
    public func restore(
        at revision: UInt64, durable: Bool = false, ifMatch: WorkspaceETag? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Empty> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(APIRoute.restore, options: options, body: RestoreRequest(at: revision))
    }

    /// `POST /v1/projects/{id}/restore`: the project `id` with its panes and tabs as at `revision`, undeleted where
    /// it was when it was deleted since.
    public func restoreProject(
        id: WorkspaceID, at revision: UInt64, durable: Bool = false, ifMatch: WorkspaceETag? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Project> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(
            APIRoute.restoreProject, id.text, options: options, body: RestoreRequest(at: revision))
    }
}
