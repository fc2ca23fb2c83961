import WorkspaceAPI
import WorkspaceModel

extension WorkspaceClient {
    /// `POST /v1/panes/{id}/tabs`: a new tab in a pane, which becomes the focused one.
    public func openTab(
        paneID: WorkspaceID, folder: String, durable: Bool = false, ifMatch: WorkspaceETag? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Tab> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(
            APIRoute.createTab, paneID.text, options: options,
            body: OpenTabRequest(folder: folder))
    }

    /// `DELETE /v1/tabs/{id}`.
    public func closeTab(
        id: WorkspaceID, durable: Bool = false, ifMatch: WorkspaceETag? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Empty> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(APIRoute.deleteTab, id.text, options: options)
    }

    /// `POST /v1/tabs/{id}/focus`.
    public func focusTab(
        id: WorkspaceID, durable: Bool = false, ifMatch: WorkspaceETag? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Empty> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(APIRoute.focusTab, id.text, options: options)
    }
}
