import WorkspaceModel

extension WorkspaceClient {
    /// `POST /v1/panes/{id}/tabs`: a new tab in a pane, which becomes the focused one.
    public func openTab(
        paneID: WorkspaceID, folder: String, durable: Bool = false, ifMatch: UInt64? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Tab> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(
            .POST, options.target("/v1/panes/\(paneID.text)/tabs"), headers: options.headers,
            body: OpenTabRequest(folder: folder))
    }

    /// `DELETE /v1/tabs/{id}`.
    public func closeTab(
        id: WorkspaceID, durable: Bool = false, ifMatch: UInt64? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Empty> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(.DELETE, options.target("/v1/tabs/\(id.text)"), headers: options.headers)
    }

    /// `POST /v1/tabs/{id}/focus`.
    public func focusTab(
        id: WorkspaceID, durable: Bool = false, ifMatch: UInt64? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Empty> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(.POST, options.target("/v1/tabs/\(id.text)/focus"), headers: options.headers)
    }
}
