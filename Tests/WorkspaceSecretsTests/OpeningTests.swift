import Foundation
import StateStore
import TestSupport
import Testing

@testable import WorkspaceSecrets

@Suite("Opening the store: the first start, the key, and every way it cannot be opened")
struct OpeningTests {
    @Test func theFirstStartCreatesTheStoreTheInstallationAndAKeyFile() throws {
        let directory = try SecretsDirectory()
        let (store, opening) = try directory.openStore()
        #expect(opening.createdInstallation)
        #expect(directory.names().contains("secrets.json.enc") && directory.names().contains("installation.json"))
        #expect(directory.mode("secrets.json.enc") == 0o600 && directory.mode("secrets.key") == 0o600)
        let key = try directory.keyFileKey()
        #expect(store.keyID == key.id && opening.keySource == .keyFile(path: directory.location.keyPath))
        let record = store.installation
        #expect(record.firstRelease == "9.9.9" && record.firstStartedAt == directory.clock.now)
        let installation = try jsonObject(try #require(directory.read("installation.json")))
        #expect(installation["id"] as? String == record.id.uuidString.lowercased())
        #expect(installation["keyId"] as? String == key.id)
        let kinds = opening.notices.map(\.kind)
        #expect(kinds.contains(.keyFileCreated) && kinds.contains(.installationCreated))
        #expect(opening.notices.filter { $0.kind == .keyFileInUse }.count == 1)
        let stored = try #require(directory.read("secrets.json.enc"))
        #expect(SecretsSealing.keyID(of: stored) == key.id)
        #expect(!String(decoding: stored, as: UTF8.self).contains(record.id.uuidString.lowercased()))
    }

    @Test func everyLaterStartKeepsTheInstallationAndWarnsAboutTheKeyFileAgain() throws {
        let directory = try SecretsDirectory()
        let first = try directory.openStore().0
        let id = first.installation.id
        try first.close()
        first.state.file.unlock()
        directory.clock.advance(by: 86_400)
        let (second, opening) = try directory.openStore()
        #expect(second.installation.id == id && !opening.createdInstallation)
        let warning = try #require(opening.notices.first { $0.kind == .keyFileInUse })
        #expect(warning.level == .warning)
        #expect(warning.message.contains("systemd-creds encrypt --name=secrets-key \(directory.location.keyPath)"))
        #expect(warning.message.contains("LoadCredentialEncrypted=secrets-key:/etc/workspaced/secrets-key.cred"))
    }

    @Test func aCredentialIsUsedAndNoKeyFileIsCreated() throws {
        let directory = try SecretsDirectory()
        let key = SecretsKey.generate()
        let (store, opening) = try directory.openStore(credential(key))
        #expect(store.keyID == key.id && opening.keySource == .credential(name: "secrets-key"))
        #expect(directory.read("secrets.key") == nil)
        #expect(!opening.notices.contains { $0.kind == .keyFileInUse })
    }

    @Test func theCredentialWinsOverAKeyFileThatIsStillThere() throws {
        let directory = try SecretsDirectory()
        let key = SecretsKey.generate()
        try directory.write("secrets.key", key.fileContents)
        let (store, opening) = try directory.openStore(credential(key))
        #expect(store.keySource == .credential(name: "secrets-key"))
        let notice = try #require(opening.notices.first { $0.kind == .keyFileLeftOver })
        #expect(notice.level == .warning && notice.message.contains(directory.location.keyPath))
    }

    /// A store created under the key file, then closed.
    func existingStore() throws -> (SecretsDirectory, Data, UUID) {
        let directory = try SecretsDirectory()
        let store = try directory.openStore().0
        let id = store.installation.id
        try store.close()
        store.state.file.unlock()
        return (directory, try #require(directory.read("secrets.json.enc")), id)
    }

    /// Opens and requires it unavailable for `reason`, with the store's bytes untouched and no file added.
    func expectUnavailable(
        _ directory: SecretsDirectory, _ reason: SecretsUnavailable.Reason, key: ProvidedKey = .none,
        message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> SecretStoreOpening {
        let before = directory.read("secrets.json.enc")
        let names = directory.names()
        let opening = directory.open(key)
        #expect(opening.store == nil, sourceLocation: sourceLocation)
        #expect(
            opening.unavailable?.reason == reason, "\(String(describing: opening.unavailable))",
            sourceLocation: sourceLocation)
        #expect(
            opening.unavailable?.message.contains(message) == true, "\(opening.unavailable?.message ?? "")",
            sourceLocation: sourceLocation)
        #expect(directory.read("secrets.json.enc") == before, "the store was changed", sourceLocation: sourceLocation)
        #expect(
            directory.names().filter { $0 != ".secrets.json.enc.lock" }
                == names.filter { $0 != ".secrets.json.enc.lock" },
            sourceLocation: sourceLocation)
        return opening
    }

    @Test func aMissingKeyDisablesAndNeverMakesANewKey() throws {
        let (directory, _, id) = try existingStore()
        try directory.remove("secrets.key")
        let opening = try expectUnavailable(directory, .noKey, message: "no key file")
        #expect(opening.installation?.id == id, "status still shows the installation from installation.json")
    }

    @Test func aWrongKeyDisablesNamingBothKeys() throws {
        let (directory, stored, _) = try existingStore()
        let other = SecretsKey.generate()
        let opening = try expectUnavailable(directory, .cannotOpen, key: credential(other), message: "wrong key")
        #expect(opening.unavailable?.message.contains(other.id) == true)
        #expect(opening.unavailable?.message.contains(SecretsSealing.keyID(of: stored)!) == true)
    }

    @Test func aTamperedStoreDisables() throws {
        let (directory, stored, _) = try existingStore()
        var object = try #require(try JSONSerialization.jsonObject(with: stored) as? [String: String])
        var sealed = try #require(Data(base64Encoded: object["sealed"]!))
        sealed[sealed.count / 2] ^= 0x10
        object["sealed"] = sealed.base64EncodedString()
        try directory.write("secrets.json.enc", try JSONSerialization.data(withJSONObject: object))
        _ = try expectUnavailable(directory, .cannotOpen, message: "authentication failed")
    }

    @Test func aTruncatedStoreDisables() throws {
        let (directory, stored, _) = try existingStore()
        try directory.write("secrets.json.enc", stored.prefix(stored.count - 30))
        _ = try expectUnavailable(directory, .cannotOpen, message: "not a workspaced secrets file")
    }

    @Test func aStoreThatIsNotAnEnvelopeDisables() throws {
        let (directory, _, _) = try existingStore()
        try directory.write("secrets.json.enc", try Fixtures.data("versions/v2.json"))
        _ = try expectUnavailable(directory, .cannotOpen, message: "not a workspaced secrets file")
    }

    @Test func aStoreThatOpensButDoesNotDecodeDisables() throws {
        let (directory, _, _) = try existingStore()
        try directory.writeSealed(Data(#"{"version": 2, "tokens": "none"}"#.utf8), key: try directory.keyFileKey())
        _ = try expectUnavailable(directory, .corrupt, message: "is not a readable secret store")
    }

    @Test func anUnknownOlderVersionDisables() throws {
        let (directory, _, _) = try existingStore()
        try directory.writeSealed(Data(#"{"version": 0, "installation": {}}"#.utf8), key: try directory.keyFileKey())
        _ = try expectUnavailable(directory, .corrupt, message: "older than the first version")
    }

    @Test func aNewerIncompatibleVersionDisables() throws {
        let (directory, _, _) = try existingStore()
        try directory.writeSealed(try Fixtures.data("edge/newer-incompatible.json"), key: try directory.keyFileKey())
        _ = try expectUnavailable(directory, .newerVersion, message: "version 3")
    }

    @Test func aNewerCompatibleVersionOpensAndKeepsWhatItDoesNotKnow() async throws {
        let (directory, _, _) = try existingStore()
        try directory.writeSealed(try Fixtures.data("edge/newer-compatible.json"), key: try directory.keyFileKey())
        try directory.remove("installation.json")
        let (store, opening) = try directory.openStore()
        #expect(opening.loadReport?.isNewerCompatible == true)
        _ = try await store.createToken(name: "t", scope: .read)
        let plaintext = try SecretsSealing(key: try directory.keyFileKey()).open(directory.read("secrets.json.enc")!)
        let saved = try jsonObject(plaintext)
        #expect(saved["version"] as? Int == 3 && saved["audit"] != nil)
    }

    @Test func aKeyFileThatIsNotAKeyDisables() throws {
        let (directory, _, _) = try existingStore()
        try directory.write("secrets.key", Data("hello\n".utf8))
        _ = try expectUnavailable(directory, .badKey, message: "neither 32 raw bytes nor base64")
    }

    @Test func anUnreadableCredentialDisables() throws {
        let (directory, _, _) = try existingStore()
        _ = try expectUnavailable(
            directory, .badKey, key: .unreadable(reason: "EACCES", source: .credential(name: "secrets-key")),
            message: "credential secrets-key cannot be read")
    }

    @Test func aSecondOpenWhileTheFirstHoldsTheLockIsLocked() throws {
        let directory = try SecretsDirectory()
        let (store, _) = try directory.openStore()
        let second = directory.open()
        #expect(second.unavailable?.reason == .locked)
        try store.close()
    }

    @Test func aVersionOneStoreIsMigratedKeepingABackupSealedLikeIt() throws {
        let directory = try SecretsDirectory()
        let key = SecretsKey.generate()
        try directory.writeSealed(try Fixtures.data("versions/v1.json"), key: key)
        let (store, opening) = try directory.openStore(credential(key))
        #expect(opening.loadReport?.stepsApplied == [1...2])
        #expect(store.installation.id == UUID(uuidString: "6f1c2b9e-4d3a-4e8f-9a7b-2c5d8e1f0a34"))
        try store.state.flushSynchronously()
        let saved = try jsonObject(try SecretsSealing(key: key).open(directory.read("secrets.json.enc")!))
        #expect(saved["version"] as? Int == 2 && (saved["tokens"] as? [Any])?.isEmpty == true)
        let backup = try #require(directory.read("secrets.json.enc.v1.bak"))
        #expect(try SecretsSealing(key: key).open(backup) == (try Fixtures.data("versions/v1.json")))
    }
}
