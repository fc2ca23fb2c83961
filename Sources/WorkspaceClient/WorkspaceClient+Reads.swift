import WorkspaceAPI
import WorkspaceModel

extension WorkspaceClient {
    /// `GET /v1/status`: versions, state path, revisions, dirty, last save and its error, uptime.
    public func status() async throws(WorkspaceClientError) -> StatusResponse {
        try await call(APIRoute.status)
    }

    /// `GET /v1/workspace`: the whole workspace and its revision.
    public func workspace() async throws(WorkspaceClientError) -> WorkspaceResponse {
        try await call(APIRoute.workspace)
    }

    /// `POST /v1/flush`: returns once everything accepted so far is durable.
    public func flush() async throws(WorkspaceClientError) -> ChangeResponse<Empty> {
        try await call(APIRoute.flush)
    }

    /// `POST /v1/scrub`: reads and checks every backup, history file and the replica's newest state now, and
    /// answers with what the scrub found.
    public func scrub() async throws(WorkspaceClientError) -> ScrubStatusResponse {
        try await call(APIRoute.scrub)
    }
}
