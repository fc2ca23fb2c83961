import WorkspaceAPI

extension WorkspaceClient {
    /// `GET /v1/tokens`: every token, revoked ones included (root only, by peer credentials).
    public func tokens() async throws(WorkspaceClientError) -> [TokenInfo] {
        try await call(APIRoute.tokens)
    }

    /// `POST /v1/tokens`: creates a token with `scope` `read` or `write`; the answer holds the token, shown
    /// once (root only). It answers once the token is on disk.
    public func createToken(name: String, scope: String) async throws(WorkspaceClientError) -> CreatedTokenResponse {
        try await call(APIRoute.createToken, body: CreateTokenRequest(name: name, scope: scope))
    }

    /// `DELETE /v1/tokens/{id}`: revokes the token and returns it (root only). Revoking it again changes
    /// nothing.
    public func revokeToken(id: String) async throws(WorkspaceClientError) -> TokenInfo {
        try await call(APIRoute.revokeToken, id)
    }
}
