import WorkspaceAPI
import WorkspaceModel

extension WorkspaceClient {
    /// `GET /v1/projects`.
    public func projects() async throws(WorkspaceClientError) -> [Project] {
        try await call(APIRoute.projects)
    }

    /// `GET /v1/projects/{id}`.
    public func project(id: WorkspaceID) async throws(WorkspaceClientError) -> Project {
        try await call(APIRoute.project, id.text)
    }

    /// `POST /v1/projects`: a new project without panes.
    public func createProject(
        name: String, layout: Layout, durable: Bool = false, ifMatch: WorkspaceETag? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Project> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(
            APIRoute.createProject, options: options,
            body: CreateProjectRequest(name: name, layout: layout.rawValue))
    }

    /// `PATCH /v1/projects/{id}` with a new name.
    public func renameProject(
        id: WorkspaceID, name: String, durable: Bool = false, ifMatch: WorkspaceETag? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Project> {
        try await updateProject(id: id, UpdateProjectRequest(name: name), durable: durable, ifMatch: ifMatch)
    }

    /// `PATCH /v1/projects/{id}` with a new layout.
    public func setProjectLayout(
        id: WorkspaceID, layout: Layout, durable: Bool = false, ifMatch: WorkspaceETag? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Project> {
        try await updateProject(
            id: id, UpdateProjectRequest(layout: layout.rawValue), durable: durable, ifMatch: ifMatch)
    }

    /// `PATCH /v1/projects/{id}` with any of name and layout.
    public func updateProject(
        id: WorkspaceID, _ request: UpdateProjectRequest, durable: Bool = false, ifMatch: WorkspaceETag? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Project> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(
            APIRoute.updateProject, id.text, options: options, body: request)
    }

    /// `DELETE /v1/projects/{id}`.
    public func deleteProject(
        id: WorkspaceID, durable: Bool = false, ifMatch: WorkspaceETag? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Empty> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(APIRoute.deleteProject, id.text, options: options)
    }
}
