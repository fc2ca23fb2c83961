import Foundation
import TestSupport
import Testing

@testable import WorkspaceSecrets

@Suite("Deleting one file never resets the installation")
struct DeletionResistanceTests {
    func createdStore() throws -> (SecretsDirectory, UUID) {
        let directory = try SecretsDirectory()
        let store = try directory.openStore().0
        let id = store.installation.id
        try store.close()
        store.state.file.unlock()
        return (directory, id)
    }

    /// The file's JSON without the store's own root keys (`version`, `minReaderVersion`, `revision`, `lineage`,
    /// `contentChecksum`).
    static func record(_ data: Data?) throws -> NSDictionary {
        let bytes = try #require(data)
        var object = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        for key in ["version", "minReaderVersion", "revision", "lineage", "contentChecksum"] { object[key] = nil }
        return object as NSDictionary
    }

    @Test func aMissingStoreWithInstallationJSONDisablesAndMintsNoNewInstallation() throws {
        let (directory, id) = try createdStore()
        try directory.remove("secrets.json.enc")
        let installation = directory.read("installation.json")
        let opening = directory.open()
        #expect(opening.store == nil && opening.unavailable?.reason == .missingFile)
        #expect(opening.unavailable?.message.contains(id.uuidString.lowercased()) == true)
        #expect(opening.unavailable?.message.contains("workspaced secrets reset --yes") == true)
        #expect(opening.installation?.id == id)
        #expect(directory.read("secrets.json.enc") == nil, "no new store")
        #expect(directory.read("installation.json") == installation)
    }

    @Test func aMissingInstallationJSONIsWrittenAgainFromTheStore() throws {
        let (directory, id) = try createdStore()
        let before = try #require(directory.read("installation.json"))
        try directory.remove("installation.json")
        let (store, opening) = try directory.openStore()
        #expect(store.installation.id == id)
        // The same record; the file written anew starts a new lineage (its `lineage` and `revision` keys).
        #expect(try Self.record(directory.read("installation.json")) == Self.record(before))
        #expect(opening.notices.contains { $0.kind == .installationFileWritten && $0.message.contains("was missing") })
    }

    @Test func anUnreadableInstallationJSONIsWrittenAgainWithAWarning() throws {
        let (directory, id) = try createdStore()
        try directory.write("installation.json", Data("{".utf8))
        let (store, opening) = try directory.openStore()
        #expect(store.installation.id == id)
        let file = try jsonObject(try #require(directory.read("installation.json")))
        #expect(file["id"] as? String == id.uuidString.lowercased())
        #expect(opening.notices.contains { $0.kind == .installationFileWritten && $0.level == .warning })
    }

    @Test func installationJSONOfAnotherInstallationDisables() throws {
        let (directory, _) = try createdStore()
        var file = try jsonObject(try #require(directory.read("installation.json")))
        file["id"] = "00000000-0000-4000-8000-000000000001"
        try directory.write("installation.json", try JSONSerialization.data(withJSONObject: file))
        let opening = directory.open()
        #expect(opening.unavailable?.reason == .installationMismatch)
        #expect(opening.unavailable?.message.contains("00000000-0000-4000-8000-000000000001") == true)
    }

    @Test func bothFilesMissingIsANewInstallation() throws {
        let (directory, id) = try createdStore()
        try directory.remove("secrets.json.enc")
        try directory.remove("installation.json")
        let (store, opening) = try directory.openStore()
        #expect(opening.createdInstallation && store.installation.id != id)
    }

    @Test func theKeyFileIsNeverCreatedWhileInstallationJSONExists() throws {
        let (directory, _) = try createdStore()
        try directory.remove("secrets.json.enc")
        try directory.remove("secrets.key")
        let opening = directory.open()
        #expect(opening.unavailable?.reason == .noKey)
        #expect(directory.read("secrets.key") == nil)
    }
}
