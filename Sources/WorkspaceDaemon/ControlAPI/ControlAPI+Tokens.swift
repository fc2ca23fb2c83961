import Logging
import NIOHTTP1
import UnixHTTP
import WorkspaceAPI
import WorkspaceSecrets

extension ControlAPI {
    /// `/v1/tokens`: root (peer uid 0, without a token) lists, creates and revokes API tokens.
    func tokenRoutes() -> [(APIRoute, HTTPRouter.Handler)] {
        [
            (
                APIRoute.tokens,
                { request in
                    await self.respond {
                        let store = try self.tokenStore(for: request)
                        return self.ok(store.tokens().map(TokenInfo.init))
                    }
                }
            ),
            (
                APIRoute.createToken,
                { request in
                    await self.respond {
                        let store = try self.tokenStore(for: request)
                        let body = try APIJSON.decode(CreateTokenRequest.self, from: request.body)
                        let created: CreatedToken
                        do throws(SecretStoreError) {
                            created = try await store.createToken(
                                name: body.name, scope: TokenScope(rawValue: body.scope))
                        } catch {
                            throw APIFailure(error)
                        }
                        self.logger.notice(
                            "created \(created.record.scope.rawValue) token \(created.record.id) (\"\(created.record.name)\") for uid \(request.peer.uid)",
                            metadata: DaemonEvent.tokenCreated.metadata([
                                "token_id": "\(created.record.id)", "token_name": "\(created.record.name)",
                                "scope": "\(created.record.scope.rawValue)", "peer_uid": "\(request.peer.uid)",
                            ]))
                        return self.ok(
                            CreatedTokenResponse(token: created.token.text, info: TokenInfo(created.record)),
                            status: .created)
                    }
                }
            ),
            (
                APIRoute.revokeToken,
                { request in
                    await self.respond {
                        let store = try self.tokenStore(for: request)
                        let id = request.pathParameters["id"] ?? ""
                        guard BearerToken.isValidID(id) else {
                            throw APIFailure(
                                .badRequest, APIErrorCode.invalidField,
                                "\"\(id)\" is not a token id (12 lower-case hex digits)", field: "id")
                        }
                        try APIJSON.requireNoBody(request.body)
                        let revoked: TokenRecord
                        do throws(SecretStoreError) {
                            revoked = try await store.revokeToken(id: id)
                        } catch {
                            throw APIFailure(error)
                        }
                        self.logger.notice(
                            "revoked token \(revoked.id) (\"\(revoked.name)\") for uid \(request.peer.uid)",
                            metadata: DaemonEvent.tokenRevoked.metadata([
                                "token_id": "\(revoked.id)", "token_name": "\(revoked.name)",
                                "peer_uid": "\(request.peer.uid)",
                            ]))
                        return self.ok(TokenInfo(revoked))
                    }
                }
            ),
        ]
    }

    /// The open store, for root without a token: 403 for anyone else or with a token, 503 while the store is
    /// unavailable.
    func tokenStore(for request: HTTPRequest) throws(APIFailure) -> SecretStore {
        guard request.headers[canonicalForm: "authorization"].isEmpty else {
            throw APIFailure(
                .forbidden, APIErrorCode.forbidden,
                "tokens are managed by root on its own connection, not with a token")
        }
        guard request.peer.uid == 0 else {
            throw APIFailure(
                .forbidden, APIErrorCode.forbidden, "only root manages tokens; uid \(request.peer.uid) may not")
        }
        guard let store = secrets.store else {
            throw APIFailure(
                .serviceUnavailable, APIErrorCode.secretsUnavailable,
                "the secret store is unavailable: \(secrets.unavailable?.message ?? "not opened")")
        }
        return store
    }
}

extension APIFailure {
    /// The API's answer to a refused token change.
    init(_ error: SecretStoreError) {
        switch error {
        case .invalidName:
            self.init(.badRequest, APIErrorCode.invalidField, error.description, field: "name")
        case .invalidScope:
            self.init(.badRequest, APIErrorCode.invalidField, error.description, field: "scope")
        case .notFound:
            self.init(.notFound, APIErrorCode.notFound, error.description, field: "id")
        case .notDurable:
            self.init(.serviceUnavailable, APIErrorCode.notDurable, error.description)
        case .closed:
            self.init(.serviceUnavailable, APIErrorCode.unavailable, error.description)
        }
    }
}
