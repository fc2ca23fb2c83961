import Foundation
import StateStore
import TestSupport
import Testing

@testable import WorkspaceSecrets

@Suite("Offline check, rekey (including a half-done one) and reset", .heavy)
struct MaintenanceTests {
    /// A store with one write token, closed, and that token.
    func storeWithToken(_ key: ProvidedKey = .none) async throws -> (SecretsDirectory, BearerToken, UUID) {
        let directory = try SecretsDirectory()
        let store = try directory.openStore(key).0
        let token = try await store.createToken(name: "t", scope: .write).token
        let id = store.installation.id
        try store.close()
        store.state.file.unlock()
        return (directory, token, id)
    }

    @Test func checkReadsWithoutWritingAndSaysWhatIsThere() async throws {
        let (directory, _, id) = try await storeWithToken()
        let before = directory.names()
        let report = SecretsMaintenance.check(at: directory.location, key: .none, options: directory.options())
        #expect(report.readable, "\(report.lines)")
        let text = report.lines.joined(separator: "\n")
        #expect(text.contains(id.uuidString.lowercased()) && text.contains("tokens: 1 active, 0 revoked"))
        #expect(text.contains("installation.json: matches"))
        #expect(directory.names() == before)
    }

    @Test func checkSaysWhyAStoreIsUnreadable() async throws {
        let (directory, _, _) = try await storeWithToken()
        let report = SecretsMaintenance.check(
            at: directory.location, key: credential(SecretsKey.generate()), options: directory.options())
        #expect(!report.readable && report.lines.last?.contains("wrong key") == true)
        try directory.remove("secrets.json.enc")
        let missing = SecretsMaintenance.check(at: directory.location, key: .none, options: directory.options())
        #expect(missing.verdict == .unreadable)
        let empty = try SecretsDirectory()
        #expect(
            SecretsMaintenance.check(at: empty.location, key: .none, options: empty.options()).verdict == .nothingThere)
    }

    @Test func theToolsRefuseWhileTheStoreIsOpen() throws {
        let directory = try SecretsDirectory()
        let (store, _) = try directory.openStore()
        #expect(
            SecretsMaintenance.check(at: directory.location, key: .none, options: directory.options()).verdict
                == .locked)
        #expect(throws: SecretsMaintenanceError.self) {
            try SecretsMaintenance.rekey(at: directory.location, key: .none, newKey: nil, options: directory.options())
        }
        #expect {
            try SecretsMaintenance.reset(at: directory.location, options: directory.options())
        } throws: { ($0 as? SecretsMaintenanceError)?.reason == .locked }
        try store.close()
    }

    @Test func rekeyWithTheKeyFileReplacesTheKeyAndKeepsEverything() async throws {
        let (directory, token, id) = try await storeWithToken()
        let old = try directory.keyFileKey()
        let lines = try SecretsMaintenance.rekey(
            at: directory.location, key: .none, newKey: nil, options: directory.options())
        let new = try directory.keyFileKey()
        #expect(new.id != old.id && directory.read("secrets.key.new") == nil)
        #expect(lines.contains { $0.contains("re-encrypted") && $0.contains(new.id) })
        #expect(SecretsSealing.keyID(of: directory.read("secrets.json.enc")!) == new.id)
        #expect(try jsonObject(directory.read("installation.json")!)["keyId"] as? String == new.id)
        #expect(directory.open(credential(old)).unavailable?.reason == .cannotOpen, "the old key no longer opens it")
        let store = try directory.openStore().0
        #expect(store.installation.id == id)
        #expect(store.authenticate(token.text) == .granted(id: token.id, scope: .write))
    }

    @Test func rekeyWithAGivenNewKeyUsesIt() async throws {
        let (directory, _, _) = try await storeWithToken()
        let new = SecretsKey.generate()
        _ = try SecretsMaintenance.rekey(
            at: directory.location, key: .none, newKey: (Array(new.fileContents), "new.key"),
            options: directory.options())
        #expect(try directory.keyFileKey() == new)
    }

    @Test func rekeyOnACredentialNeedsTheNewKeyAndSaysHowToInstallIt() async throws {
        let old = SecretsKey.generate()
        let (directory, token, _) = try await storeWithToken(credential(old))
        #expect {
            try SecretsMaintenance.rekey(
                at: directory.location, key: credential(old), newKey: nil, options: directory.options())
        } throws: { ($0 as? SecretsMaintenanceError)?.reason == .usage }
        let new = SecretsKey.generate()
        let lines = try SecretsMaintenance.rekey(
            at: directory.location, key: credential(old), newKey: (Array(new.fileContents), "/root/new.key"),
            options: directory.options())
        #expect(lines.contains { $0.contains("systemd-creds encrypt --name=secrets-key /root/new.key") })
        #expect(directory.read("secrets.key") == nil)
        let refused = directory.open(credential(old))
        #expect(refused.unavailable?.reason == .cannotOpen && refused.unavailable?.message.contains(new.id) == true)
        refused.releaseLock()
        let store = try directory.openStore(credential(new)).0
        #expect(store.authenticate(token.text) == .granted(id: token.id, scope: .write))
    }

    @Test func aRekeyInterruptedAfterTheReEncryptionIsFinishedAtTheNextStart() async throws {
        let (directory, token, _) = try await storeWithToken()
        let old = try directory.keyFileKey()
        let new = SecretsKey.generate()
        // The state on disk when the rekey died just before renaming the new key into place.
        try directory.write("secrets.key.new", new.fileContents)
        let plaintext = try SecretsSealing(key: old).open(directory.read("secrets.json.enc")!)
        try directory.writeSealed(plaintext, key: new)
        let (store, opening) = try directory.openStore()
        #expect(store.keyID == new.id)
        #expect(opening.notices.contains { $0.kind == .rekeyFinished })
        #expect(try directory.keyFileKey() == new && directory.read("secrets.key.new") == nil)
        #expect(store.authenticate(token.text) == .granted(id: token.id, scope: .write))
        #expect(try jsonObject(directory.read("installation.json")!)["keyId"] as? String == new.id)
    }

    @Test func aRekeyInterruptedBeforeTheReEncryptionIsDroppedAtTheNextStart() async throws {
        let (directory, token, _) = try await storeWithToken()
        let old = try directory.keyFileKey()
        try directory.write("secrets.key.new", SecretsKey.generate().fileContents)
        let (store, opening) = try directory.openStore()
        #expect(store.keyID == old.id && directory.read("secrets.key.new") == nil)
        #expect(opening.notices.contains { $0.kind == .rekeyAbandoned })
        #expect(store.authenticate(token.text) == .granted(id: token.id, scope: .write))
    }

    @Test func checkReportsAHalfDoneRekeyWithoutFinishingIt() async throws {
        let (directory, _, _) = try await storeWithToken()
        let old = try directory.keyFileKey()
        let new = SecretsKey.generate()
        try directory.write("secrets.key.new", new.fileContents)
        try directory.writeSealed(try SecretsSealing(key: old).open(directory.read("secrets.json.enc")!), key: new)
        let report = SecretsMaintenance.check(at: directory.location, key: .none, options: directory.options())
        #expect(report.readable && report.lines.contains { $0.contains("the next start moves it") })
        #expect(directory.read("secrets.key.new") != nil)
        #expect(try directory.keyFileKey() == old)
    }

    @Test func resetKeepsTheOldStoreAsideAndTheNextStartIsANewInstallation() async throws {
        let (directory, token, id) = try await storeWithToken()
        let stored = directory.read("secrets.json.enc")
        let lines = try SecretsMaintenance.reset(at: directory.location, options: directory.options())
        let aside = try #require(directory.names().first { $0.hasPrefix("secrets.json.enc.reset-") })
        #expect(aside == "secrets.json.enc.reset-20261118T110640Z", "named by the clock's UTC time")
        #expect(directory.read(aside) == stored && directory.read("installation.json") == nil)
        #expect(directory.read("secrets.key") != nil, "the key is kept")
        #expect(lines.contains { $0.contains(aside) })
        let (store, opening) = try directory.openStore()
        #expect(opening.createdInstallation && store.installation.id != id)
        #expect(store.authenticate(token.text) == .unknown(id: token.id))
        try store.close()
        store.state.file.unlock()
        _ = try SecretsMaintenance.reset(at: directory.location, options: directory.options())
        #expect(directory.names().filter { $0.hasPrefix("secrets.json.enc.reset-") }.count == 2, "never replaced")
    }
}
