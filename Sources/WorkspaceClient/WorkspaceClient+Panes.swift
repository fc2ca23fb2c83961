import WorkspaceAPI
import WorkspaceModel

extension WorkspaceClient {
    /// `POST /v1/projects/{id}/panes`: a new pane in a project (`list` view when `viewMode` is `nil`).
    public func addPane(
        projectID: WorkspaceID, folder: String, viewMode: ViewMode? = nil, durable: Bool = false,
        ifMatch: WorkspaceETag? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Pane> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(
            APIRoute.createPane, projectID.text, options: options,
            body: AddPaneRequest(folder: folder, viewMode: viewMode?.rawValue))
    }

    /// `PATCH /v1/panes/{id}`: a new folder and/or view mode (at least one).
    public func updatePane(
        id: WorkspaceID, folder: String? = nil, viewMode: ViewMode? = nil, durable: Bool = false,
        ifMatch: WorkspaceETag? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Pane> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(
            APIRoute.updatePane, id.text, options: options,
            body: UpdatePaneRequest(folder: folder, viewMode: viewMode?.rawValue))
    }

    /// `DELETE /v1/panes/{id}`.
    public func removePane(
        id: WorkspaceID, durable: Bool = false, ifMatch: WorkspaceETag? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Empty> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(APIRoute.deletePane, id.text, options: options)
    }
}
