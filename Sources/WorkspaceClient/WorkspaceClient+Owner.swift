import WorkspaceAPI
import WorkspaceModel

extension WorkspaceClient {
    /// `GET /v1/active-project`: the active project's id, `nil` for none.
    public func activeProject() async throws(WorkspaceClientError) -> WorkspaceID? {
        let response: ActiveProjectResponse = try await call(APIRoute.activeProject)
        return response.projectID
    }

    /// `PUT /v1/active-project`: makes `projectID` the active project (`nil` for none).
    public func setActiveProject(
        _ projectID: WorkspaceID?, durable: Bool = false, ifMatch: WorkspaceETag? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Empty> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(
            APIRoute.setActiveProject, options: options,
            body: SetActiveProjectRequest(projectID: projectID?.text))
    }

    /// `GET /v1/owner`.
    public func owner() async throws(WorkspaceClientError) -> Owner {
        try await call(APIRoute.owner)
    }

    /// `PATCH /v1/owner`: a new alias and/or email (at least one; an empty email clears it).
    public func updateOwner(
        alias: String? = nil, email: String? = nil, durable: Bool = false, ifMatch: WorkspaceETag? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Owner> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(
            APIRoute.updateOwner, options: options,
            body: UpdateOwnerRequest(alias: alias, email: email))
    }
}
