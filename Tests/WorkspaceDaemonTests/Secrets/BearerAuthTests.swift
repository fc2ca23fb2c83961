import Foundation
import NIOHTTP1
import Testing
import UnixHTTP
import WorkspaceDaemon
import WorkspaceSecrets

/// Who may do what with a bearer token, decided by `RequestAuthorizer` in front of the real router.
@Suite("Bearer tokens on the control API, in process")
struct BearerAuthTests {
    @Test func withoutATokenThePeersCredentialsDecideAsBefore() async throws {
        let api = try SecretsAPI()
        #expect(await api.send(.GET, "/v1/workspace").status == .ok)
        #expect(await api.send(.GET, "/v1/workspace", peer: SecretsAPI.reader).status == .ok)
        let change = await api.send(.POST, "/v1/favorites", #"{"name": "x", "path": "/x"}"#, peer: SecretsAPI.reader)
        #expect(change.status == .forbidden && change.errorMessage.contains("may not change"))
        #expect(await api.send(.GET, "/v1/workspace", peer: SecretsAPI.nobody).status == .forbidden)
    }

    @Test func aReadTokenReadsButEveryChangeIsForbidden() async throws {
        let api = try SecretsAPI()
        let token = try await api.createToken(scope: "read")
        #expect(await api.send(.GET, "/v1/workspace", token: token, peer: SecretsAPI.nobody).status == .ok)
        #expect(await api.send(.GET, "/v1/projects", token: token, peer: SecretsAPI.nobody).status == .ok)
        for (method, uri, body) in [
            (HTTPMethod.POST, "/v1/favorites", #"{"name": "x", "path": "/x"}"#),
            (.PATCH, "/v1/owner", #"{"alias": "x"}"#), (.POST, "/v1/flush", "{}"),
        ] {
            let refused = await api.send(method, uri, body, token: token, peer: SecretsAPI.nobody)
            #expect(refused.status == .forbidden && refused.errorCode == "forbidden", "\(method) \(uri)")
            #expect(refused.errorMessage.contains("a read token may not change"))
        }
        #expect(api.state.snapshot.revision == 0)
    }

    @Test func aWriteTokenChangesFromAPeerTheAccessListsDoNotKnow() async throws {
        let api = try SecretsAPI()
        let token = try await api.createToken(scope: "write")
        let created = await api.send(
            .POST, "/v1/favorites", #"{"name": "x", "path": "/x"}"#, token: token, peer: SecretsAPI.nobody)
        #expect(created.status == .created)
        #expect(api.state.snapshot.revision == 1)
    }

    @Test func aTokenDecidesEvenForRoot() async throws {
        let api = try SecretsAPI()
        let token = try await api.createToken(scope: "read")
        let refused = await api.send(.PATCH, "/v1/owner", #"{"alias": "x"}"#, token: token, peer: SecretsAPI.root)
        #expect(refused.status == .forbidden)
    }

    @Test func wrongUnknownRevokedAndMalformedTokensGet401AndOneWarningNamingTheID() async throws {
        let api = try SecretsAPI()
        let token = try await api.createToken(scope: "write")
        guard case .token(let parsed) = BearerToken.parse(token) else {
            Issue.record("not a token: \(token)")
            return
        }
        let id = parsed.id
        let secret = String(token.dropFirst(17))
        let wrong = "wsd_\(id)_" + String(repeating: "A", count: 43)
        let unknown = "wsd_000000000000_" + secret
        let malformed = "wsd_\(id)_tooshort"
        let cases: [(String, String, String, String)] = [
            (wrong, id, "wrong_secret", "wrong secret"), (unknown, "000000000000", "unknown", "is not known"),
            (malformed, id, "malformed", "malformed"), ("hunter2", "none", "malformed", "malformed"),
        ]
        for (presented, loggedID, reason, message) in cases {
            api.log.clear()
            let refused = await api.send(.GET, "/v1/workspace", token: presented, peer: SecretsAPI.nobody)
            #expect(refused.status == .unauthorized && refused.errorCode == "unauthorized", "\(reason)")
            #expect(refused.errorMessage.contains(message), "\(refused.errorMessage)")
            #expect(refused.headers.first(name: "WWW-Authenticate")?.hasPrefix("Bearer") == true)
            let warnings = api.log.entries(.tokenRefused)
            #expect(warnings.count == 1, "one warning per refused request: \(warnings.map(\.message))")
            #expect(warnings.first?.level == .warning)
            #expect(warnings.first?.metadata["token_id"] == loggedID)
            #expect(warnings.first?.metadata["reason"] == reason)
            #expect(api.log.all.count == 1, "nothing else is logged: \(api.log.all.map(\.message))")
        }
        #expect(await api.send(.DELETE, "/v1/tokens/\(id)").status == .ok)
        api.log.clear()
        let revoked = await api.send(.GET, "/v1/workspace", token: token, peer: SecretsAPI.nobody)
        #expect(revoked.status == .unauthorized && revoked.errorMessage == "token \(id) was revoked")
        #expect(api.log.entries(.tokenRefused).map { $0.metadata["token_id"] } == [id])
        #expect(api.log.entries(.tokenRefused).first?.metadata["reason"] == "revoked")
    }

    @Test func theSecretNeverAppearsInTheLogOrInAnyAnswerButTheFirst() async throws {
        let api = try SecretsAPI()
        let token = try await api.createToken(scope: "write")
        let secret = String(token.dropFirst(17))
        let id = String(token.dropFirst(4).prefix(12))
        _ = await api.send(.GET, "/v1/workspace", token: token, peer: SecretsAPI.nobody)
        _ = await api.send(.GET, "/v1/workspace", token: "wsd_\(id)_\(String(secret.reversed()))")
        _ = await api.send(.PATCH, "/v1/owner", #"{"alias": "x"}"#, token: token)
        let listed = await api.send(.GET, "/v1/tokens")
        let revoked = await api.send(.DELETE, "/v1/tokens/\(id)")
        _ = await api.send(.GET, "/v1/workspace", token: token)
        let status = await api.send(.GET, "/v1/status")
        #expect(!api.log.all.isEmpty)
        for entry in api.log.all {
            #expect(!entry.everything.contains(secret), "logged the secret: \(entry.everything)")
            #expect(!entry.everything.contains(String(secret.reversed())), "logged a presented secret")
        }
        for exchange in [listed, revoked, status] {
            #expect(!exchange.text.contains(secret) && !exchange.text.contains("secretHash"))
        }
        #expect(api.log.entries(.tokenCreated).count == 1 && api.log.entries(.tokenRevoked).count == 1)
    }

    @Test(arguments: ["bearer", "BEARER", "Bearer"])
    func theSchemeIsCaseInsensitive(scheme: String) async throws {
        let api = try SecretsAPI()
        let token = try await api.createToken(scope: "read")
        let read = await api.send(.GET, "/v1/status", authorization: ["\(scheme) \(token)"], peer: SecretsAPI.nobody)
        #expect(read.status == .ok)
    }

    @Test func anotherSchemeOrTwoAuthorizationHeadersAre401() async throws {
        let api = try SecretsAPI()
        let token = try await api.createToken(scope: "read")
        #expect(await api.send(.GET, "/v1/status", authorization: ["Basic cm9vdDpyb290"]).status == .unauthorized)
        #expect(await api.send(.GET, "/v1/status", authorization: ["Bearer"]).status == .unauthorized)
        let twice = await api.send(.GET, "/v1/status", authorization: ["Bearer \(token)", "Bearer \(token)"])
        #expect(twice.status == .unauthorized)
    }

    @Test func lastUseIsRecorded() async throws {
        let api = try SecretsAPI()
        let token = try await api.createToken(scope: "read")
        #expect(await api.send(.GET, "/v1/tokens").array.first?["lastUsedAt"] is NSNull)
        _ = await api.send(.GET, "/v1/status", token: token, peer: SecretsAPI.nobody)
        #expect(await api.send(.GET, "/v1/tokens").array.first?["lastUsedAt"] is String)
    }
}
