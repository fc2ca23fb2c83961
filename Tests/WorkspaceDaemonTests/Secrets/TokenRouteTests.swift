import Foundation
import NIOHTTP1
import Testing
import UnixHTTP
import WorkspaceAPI
import WorkspaceDaemon
import WorkspaceSecrets

/// `/v1/tokens` and the secret store in `/v1/status`, in process.
@Suite("Token routes and the secrets status, in process")
struct TokenRouteTests {
    @Test func rootCreatesListsAndRevokesTokens() async throws {
        let api = try SecretsAPI()
        let created = await api.send(.POST, "/v1/tokens", #"{"name": "ui", "scope": "write"}"#)
        #expect(created.status == .created)
        let token = try #require(created.json["token"] as? String)
        #expect(token.wholeMatch(of: #/wsd_[0-9a-f]{12}_[A-Za-z0-9_-]{43}/#) != nil)
        let id = try #require(created.json["id"] as? String)
        #expect(created.json["name"] as? String == "ui" && created.json["scope"] as? String == "write")
        #expect(created.json["revokedAt"] is NSNull && created.json["createdAt"] is String)
        #expect(api.secrets.store?.state.status.isDirty == false, "answered once on disk")
        let listed = await api.send(.GET, "/v1/tokens")
        #expect(listed.status == .ok && listed.array.count == 1)
        #expect(Set(listed.array[0].keys) == ["id", "name", "scope", "createdAt", "lastUsedAt", "revokedAt"])
        let revoked = await api.send(.DELETE, "/v1/tokens/\(id)")
        #expect(revoked.status == .ok && revoked.json["revokedAt"] is String)
        #expect(await api.send(.GET, "/v1/tokens").array[0]["revokedAt"] is String)
        #expect(await api.send(.DELETE, "/v1/tokens/\(id)").status == .ok, "revoking again changes nothing")
    }

    @Test func onlyRootWithoutATokenManagesTokens() async throws {
        let api = try SecretsAPI()
        let write = try await api.createToken(scope: "write")
        let reader = await api.send(.GET, "/v1/tokens", peer: SecretsAPI.reader)
        #expect(reader.status == .forbidden && reader.errorMessage.contains("only root manages tokens"))
        let withToken = await api.send(.POST, "/v1/tokens", #"{"name": "x", "scope": "read"}"#, token: write)
        #expect(withToken.status == .forbidden && withToken.errorMessage.contains("not with a token"))
        #expect(await api.send(.GET, "/v1/tokens", token: write, peer: SecretsAPI.nobody).status == .forbidden)
        #expect(await api.send(.GET, "/v1/tokens").array.count == 1)
    }

    @Test func badRequestsAreRefusedNamingTheField() async throws {
        let api = try SecretsAPI()
        let scope = await api.send(.POST, "/v1/tokens", #"{"name": "x", "scope": "admin"}"#)
        #expect(scope.status == .badRequest && scope.error["field"] as? String == "scope")
        let name = await api.send(.POST, "/v1/tokens", #"{"name": "", "scope": "read"}"#)
        #expect(name.status == .badRequest && name.error["field"] as? String == "name")
        let extra = await api.send(.POST, "/v1/tokens", #"{"name": "x", "scope": "read", "ttl": 5}"#)
        #expect(extra.status == .badRequest && extra.errorCode == "unknown_field")
        #expect(await api.send(.DELETE, "/v1/tokens/ABCDEF").status == .badRequest)
        let unknown = await api.send(.DELETE, "/v1/tokens/0123456789ab")
        #expect(unknown.status == .notFound && unknown.errorCode == "not_found")
        #expect(await api.send(.GET, "/v1/tokens").array.isEmpty)
    }

    @Test func statusShowsTheInstallationAndAnEnabledStore() async throws {
        let api = try SecretsAPI()
        _ = try await api.createToken(scope: "read")
        let status = await api.send(.GET, "/v1/status")
        let decoded = try APICoding.decoder.decode(StatusResponse.self, from: Data(status.body))
        let installation = try #require(decoded.installation)
        #expect(installation.id == api.secrets.store?.installation.id.uuidString.lowercased())
        #expect(installation.firstRelease == "0.1.0")
        #expect(
            decoded.secrets
                == SecretsStatus(
                    state: "enabled", keySource: "key-file", keyId: api.secrets.store?.keyID, activeTokens: 1))
    }

    /// A state directory whose store is sealed under a key nobody gives.
    static func sealedUnderAnotherKey(_ directory: String) throws {
        let other = try SecretsAPI(
            key: .contents(Array(SecretsKey.generate().fileContents), source: .credential(name: "secrets-key")))
        for name in ["secrets.json.enc", "installation.json"] {
            try FileManager.default.copyItem(atPath: other.directory + "/" + name, toPath: directory + "/" + name)
        }
        try SecretsKey.generate().fileContents.write(to: URL(fileURLWithPath: directory + "/secrets.key"))
    }

    @Test func aDisabledStoreRefusesTokensSaysWhyAndStillServesTheWorkspace() async throws {
        let api = try SecretsAPI(prepare: Self.sealedUnderAnotherKey)
        #expect(api.secrets.store == nil && api.secrets.unavailable?.reason == .cannotOpen)
        let bearer = await api.send(
            .GET, "/v1/workspace", token: "wsd_0123456789ab_" + String(repeating: "A", count: 43))
        #expect(bearer.status == .unauthorized)
        #expect(
            bearer.errorMessage.hasPrefix("token authentication is disabled: ")
                && bearer.errorMessage.contains("wrong key"))
        #expect(api.log.entries(.tokenRefused).first?.metadata["reason"] == "disabled")
        #expect(api.log.entries(.tokenRefused).first?.metadata["token_id"] == "0123456789ab")
        #expect(await api.send(.GET, "/v1/workspace").status == .ok, "the workspace is served")
        let tokens = await api.send(.POST, "/v1/tokens", #"{"name": "x", "scope": "read"}"#)
        #expect(tokens.status == .serviceUnavailable && tokens.errorCode == "secrets_unavailable")
        #expect(tokens.errorMessage.contains("wrong key"))
        let status = try APICoding.decoder.decode(
            StatusResponse.self, from: Data(await api.send(.GET, "/v1/status").body))
        #expect(status.secrets?.state == "disabled" && status.secrets?.reasonCode == "cannot_open")
        #expect(status.secrets?.reason?.contains("wrong key") == true)
        #expect(status.installation != nil, "the installation comes from installation.json")
    }
}
