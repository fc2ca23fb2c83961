import WorkspaceAPI
import WorkspaceModel

extension WorkspaceClient {
    /// `GET /v1/favorites`.
    public func favorites() async throws(WorkspaceClientError) -> [Favorite] {
        try await call(APIRoute.favorites)
    }

    /// `POST /v1/favorites`.
    public func addFavorite(
        name: String, path: String, durable: Bool = false, ifMatch: WorkspaceETag? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Favorite> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(
            APIRoute.addFavorite, options: options,
            body: AddFavoriteRequest(name: name, path: path))
    }

    /// `DELETE /v1/favorites/{id}`.
    public func removeFavorite(
        id: WorkspaceID, durable: Bool = false, ifMatch: WorkspaceETag? = nil
    ) async throws(WorkspaceClientError) -> ChangeResponse<Empty> {
        let options = ChangeOptions(durable: durable, ifMatch: ifMatch)
        return try await call(APIRoute.deleteFavorite, id.text, options: options)
    }
}
