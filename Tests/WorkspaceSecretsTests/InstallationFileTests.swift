import Foundation
import StateStore
import StateStoreTesting
import TestSupport
import Testing

@testable import WorkspaceSecrets

@Suite("installation.json: a versioned StateStore file, read without writing, written durably")
struct InstallationFileTests {
    static let fixtureID = UUID(uuidString: "6f1c2b9e-4d3a-4e8f-9a7b-2c5d8e1f0a34")!

    @Test func everyShippedVersionPassesTheFixtureVerifier() throws {
        let results = try FixtureVerifier(schema: try InstallationFileSchema.make())
            .verifyDirectory(Fixtures.root.appendingPathComponent("installation"))
        #expect(results.map(\.name) == ["v1.json"])
        #expect(results.map(\.storedVersion) == [1])
    }

    @Test func aFileAsEarlierReleasesWroteItReadsWithEveryField() throws {
        let directory = try SecretsDirectory()
        try directory.write("installation.json", try Fixtures.data("installation/v1.json"))
        let before = directory.names()
        let contents = InstallationFile.read(directory.location.installationPath)
        guard case .present(let file) = contents else {
            Issue.record("not present: \(contents)")
            return
        }
        #expect(file.id == Self.fixtureID && file.keyId == "3f9c0e5a71d2b864" && file.firstRelease == "0.1.0")
        #expect(file.firstStartedAt == Date(timeIntervalSince1970: 1_773_480_413))
        #expect(directory.names() == before, "a read creates no lock file and moves nothing")
    }

    @Test func writingStampsTheVersionKeepsUnknownKeysAndMode0644() throws {
        let directory = try SecretsDirectory()
        var text = String(decoding: try Fixtures.data("installation/v1.json"), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"version\"", with: "\"hostname\" : \"old-box\",\n  \"version\"")
            .replacingOccurrences(of: "6f1c2b9e", with: "6F1C2B9E")
        try directory.write("installation.json", Data(text.utf8))
        guard case .present(var file) = InstallationFile.read(directory.location.installationPath) else {
            Issue.record("not present")
            return
        }
        file.keyId = "0123456789abcdef"
        try file.write(to: directory.location.installationPath)
        let saved = try jsonObject(try #require(directory.read("installation.json")))
        #expect(saved["version"] as? Int == 1 && saved["minReaderVersion"] as? Int == 1)
        #expect(saved["id"] as? String == "6f1c2b9e-4d3a-4e8f-9a7b-2c5d8e1f0a34", "written in lower case")
        #expect(saved["keyId"] as? String == "0123456789abcdef" && saved["hostname"] as? String == "old-box")
        #expect(saved["firstStartedAt"] as? String == "2026-03-14T09:26:53Z")
        #expect(directory.mode("installation.json") == 0o644)
        #expect(InstallationFile.read(directory.location.installationPath) == .present(file))
    }

    @Test func aFileFromAReleaseThatForbidsThisOneIsUnreadableAndNeverWrittenOver() throws {
        let directory = try SecretsDirectory()
        let newer = Data(
            #"{"version":2,"minReaderVersion":2,"id":"6f1c2b9e-4d3a-4e8f-9a7b-2c5d8e1f0a34","keyId":"k"}"#.utf8)
        try directory.write("installation.json", newer)
        guard case .unreadable(let reason) = InstallationFile.read(directory.location.installationPath) else {
            Issue.record("a newer file was read")
            return
        }
        #expect(reason.contains("installation.json"))
        let file = InstallationFile(
            record: InstallationRecord(id: Self.fixtureID, firstStartedAt: Date(), firstRelease: "9.9.9"), keyID: "k")
        #expect(throws: StateStoreError.self) { try file.write(to: directory.location.installationPath) }
        #expect(directory.read("installation.json") == newer)
    }

    @Test func anUnreadableFileIsKeptAsideBeforeItIsReplacedAndLeftoverTemporaryFilesAreSwept() throws {
        let directory = try SecretsDirectory()
        try directory.write("installation.json", Data(#"{"version":1,"id":"not a uuid"}"#.utf8))
        try directory.write(".installation.json.tmp-crashed", Data("{".utf8))
        guard case .unreadable = InstallationFile.read(directory.location.installationPath) else {
            Issue.record("a file with a bad id was read")
            return
        }
        let file = InstallationFile(
            record: InstallationRecord(id: Self.fixtureID, firstStartedAt: Date(), firstRelease: "9.9.9"), keyID: "k")
        try file.write(to: directory.location.installationPath, now: { Date(timeIntervalSince1970: 1_800_000_000) })
        let names = directory.names()
        #expect(!names.contains(".installation.json.tmp-crashed"), "\(names)")
        let aside = try #require(names.first { $0.hasPrefix("installation.json.corrupt-") }, "\(names)")
        #expect(directory.read(aside) == Data(#"{"version":1,"id":"not a uuid"}"#.utf8))
        #expect(InstallationFile.read(directory.location.installationPath) == .present(file))
    }
}
