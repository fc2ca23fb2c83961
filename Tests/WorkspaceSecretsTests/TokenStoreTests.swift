import Foundation
import StateStore
import TestSupport
import Testing

@testable import WorkspaceSecrets

@Suite("Tokens: create, authenticate, scopes, revoke, last use")
struct TokenStoreTests {
    @Test func aCreatedTokenAuthenticatesWithItsScopeAndSurvivesARestart() async throws {
        let directory = try SecretsDirectory()
        let store = try directory.openStore().0
        let reader = try await store.createToken(name: "container reader", scope: .read)
        let writer = try await store.createToken(name: "ui", scope: .write)
        #expect(reader.record.name == "container reader" && reader.record.createdAt == directory.clock.now)
        #expect(store.state.status.durableRevision == store.state.status.revision, "created only once on disk")
        #expect(store.authenticate(reader.token.text) == .granted(id: reader.token.id, scope: .read))
        #expect(store.authenticate(writer.token.text) == .granted(id: writer.token.id, scope: .write))
        try store.close()
        store.state.file.unlock()
        let reopened = try directory.openStore().0
        #expect(reopened.authenticate(writer.token.text) == .granted(id: writer.token.id, scope: .write))
        #expect(reopened.tokens().map(\.name) == ["container reader", "ui"])
    }

    @Test func onlyTheHashIsStoredNeverTheSecret() async throws {
        let directory = try SecretsDirectory()
        let store = try directory.openStore().0
        let created = try await store.createToken(name: "t", scope: .write)
        let plaintext = try SecretsSealing(key: try directory.keyFileKey()).open(directory.read("secrets.json.enc")!)
        let text = String(decoding: plaintext, as: UTF8.self)
        #expect(text.contains(created.token.secretHashHex))
        #expect(!text.contains(String(created.token.text.dropFirst(17))))
        #expect(created.record.secretHash == created.token.secretHashHex)
    }

    @Test func wrongUnknownRevokedAndMalformedTokensAreRefusedByID() async throws {
        let directory = try SecretsDirectory()
        let store = try directory.openStore().0
        let created = try await store.createToken(name: "t", scope: .write)
        let id = created.token.id
        let wrong = BearerToken(id: id, secret: [UInt8](repeating: 7, count: 32))
        #expect(store.authenticate(wrong.text) == .wrongSecret(id: id))
        let unknown = BearerToken(id: "000000000000", secret: created.token.secret)
        #expect(store.authenticate(unknown.text) == .unknown(id: "000000000000"))
        #expect(store.authenticate("wsd_\(id)_short") == .malformed(id: id))
        #expect(store.authenticate("letmein") == .malformed(id: nil))
        let revoked = try await store.revokeToken(id: id)
        #expect(revoked.revokedAt == directory.clock.now)
        #expect(store.authenticate(created.token.text) == .revoked(id: id))
        #expect(store.authenticate(wrong.text) == .wrongSecret(id: id), "a wrong secret says nothing about revocation")
        #expect(store.tokens().first?.isRevoked == true, "revoked tokens stay listed")
    }

    @Test func revokingIsDurableIdempotentAndRefusesUnknownIDs() async throws {
        let directory = try SecretsDirectory()
        let store = try directory.openStore().0
        let created = try await store.createToken(name: "t", scope: .read)
        let first = try await store.revokeToken(id: created.token.id)
        #expect(store.state.status.durableRevision == store.state.status.revision)
        directory.clock.advance(by: 100)
        let revision = store.state.status.revision
        let second = try await store.revokeToken(id: created.token.id)
        #expect(second == first && store.state.status.revision == revision)
        await #expect(throws: SecretStoreError.notFound(id: "abcdefabcdef")) {
            try await store.revokeToken(id: "abcdefabcdef")
        }
    }

    @Test func namesAndScopesAreValidated() async throws {
        let directory = try SecretsDirectory()
        let store = try directory.openStore().0
        await #expect(throws: SecretStoreError.invalidName(reason: "must not be empty")) {
            try await store.createToken(name: "", scope: .read)
        }
        await #expect(throws: SecretStoreError.self) {
            try await store.createToken(name: "a\nb", scope: .read)
        }
        await #expect(throws: SecretStoreError.self) {
            try await store.createToken(name: String(repeating: "x", count: 257), scope: .read)
        }
        await #expect(throws: SecretStoreError.invalidScope("admin")) {
            try await store.createToken(name: "x", scope: TokenScope(rawValue: "admin"))
        }
        #expect(store.tokens().isEmpty && store.state.status.revision == 0)
    }

    @Test func aTokenWithAScopeFromANewerReleaseIsGrantedThatScopeForTheCallerToRefuse() throws {
        let directory = try SecretsDirectory()
        let token = BearerToken.generate()
        let key = SecretsKey.generate()
        var text = String(decoding: try Fixtures.data("edge/unknown-fields.json"), as: UTF8.self)
        text = text.replacingOccurrences(of: "0a1b2c3d4e5f", with: token.id)
            .replacingOccurrences(
                of: "5a1f2c7e9d3b4a6c8e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f", with: token.secretHashHex)
        try directory.writeSealed(Data(text.utf8), key: key)
        let store = try directory.openStore(credential(key)).0
        guard case .granted(_, let scope) = store.authenticate(token.text) else {
            Issue.record("the token was not recognised")
            return
        }
        #expect(scope.rawValue == "admin" && !scope.isKnown)
    }

    @Test func lastUsedMovesAtMostOnceAMinuteAndIsSavedWithTheDebounce() async throws {
        let directory = try SecretsDirectory()
        let store = try directory.openStore().0
        let created = try await store.createToken(name: "t", scope: .read)
        #expect(store.tokens()[0].lastUsedAt == nil)
        let before = store.state.status.revision
        _ = store.authenticate(created.token.text)
        #expect(store.tokens()[0].lastUsedAt == directory.clock.now)
        #expect(store.state.status.revision == before + 1 && store.state.status.isDirty, "in memory, not saved yet")
        let firstUse = directory.clock.now
        directory.clock.advance(by: 59)
        _ = store.authenticate(created.token.text)
        #expect(store.tokens()[0].lastUsedAt == firstUse && store.state.status.revision == before + 1)
        directory.clock.advance(by: 1)
        _ = store.authenticate(created.token.text)
        #expect(store.tokens()[0].lastUsedAt == directory.clock.now && store.state.status.revision == before + 2)
        try store.close()
        let saved = try jsonObject(
            try SecretsSealing(key: try directory.keyFileKey()).open(directory.read("secrets.json.enc")!))
        let token = try #require((saved["tokens"] as? [[String: Any]])?.first)
        #expect(token["lastUsedAt"] as? String != nil, "the close saved it")
    }

    @Test func refusalsDoNotTouchLastUse() async throws {
        let directory = try SecretsDirectory()
        let store = try directory.openStore().0
        let created = try await store.createToken(name: "t", scope: .read)
        _ = try await store.revokeToken(id: created.token.id)
        let revision = store.state.status.revision
        _ = store.authenticate(created.token.text)
        #expect(store.tokens()[0].lastUsedAt == nil && store.state.status.revision == revision)
    }
}
