import WorkspaceModel

extension WorkspaceClient {
    /// `GET /v1/favorites`.
    public func favorites() async throws(WorkspaceClientError) -> [Favorite] {
        try await call(.GET, "/v1/favorites")
    }

    /// `POST /v1/favorites`.
    public func addFavorite(
        name: String, path: String, durable: Bool = false, ifMatch: UInt64? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Favorite> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(
            .POST, options.target("/v1/favorites"), headers: options.headers,
            body: AddFavoriteRequest(name: name, path: path))
    }

    /// `DELETE /v1/favorites/{id}`.
    public func removeFavorite(
        id: WorkspaceID, durable: Bool = false, ifMatch: UInt64? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Empty> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(.DELETE, options.target("/v1/favorites/\(id.text)"), headers: options.headers)
    }
}
