import Foundation
import Systemd
import Testing
import WorkspaceDaemon

@Suite("Daemon MESSAGE_IDs")
struct DaemonEventTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func idsAreUniqueDocumentedAndInTheCatalog() throws {
        let ids = DaemonEvent.allCases.map(\.messageID.description)
        #expect(Set(ids).count == ids.count)
        let logging = try String(contentsOf: Self.root.appendingPathComponent("docs/logging.md"), encoding: .utf8)
        let catalog = try String(
            contentsOf: Self.root.appendingPathComponent("systemd/workspaced.catalog"), encoding: .utf8)
        for event in DaemonEvent.allCases {
            #expect(logging.contains("`\(event.messageID)`"), "docs/logging.md lacks \(event)")
            #expect(catalog.contains("-- \(event.messageID)\n"), "the catalog lacks \(event)")
        }
    }

    /// Every metadata key the daemon (and the HTTP server it runs) logs is a documented journal field: keys are read
    /// from the sources (`"key": "\(…)"` entries and `fields["key"]` assignments), as the journal would name them.
    @Test func everyLoggedFieldIsDocumented() throws {
        let logging = try String(contentsOf: Self.root.appendingPathComponent("docs/logging.md"), encoding: .utf8)
        let directory = Self.root.appendingPathComponent("Sources/WorkspaceDaemon/Runtime")
        var files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        files.append(Self.root.appendingPathComponent("Sources/UnixHTTP/HTTPServer.swift"))
        var keys: Set<String> = []
        for file in files where file.pathExtension == "swift" {
            let source = try String(contentsOf: file, encoding: .utf8)
            for match in source.matches(of: #/"([a-z][a-z0-9_]*)": "\\\(/#) { keys.insert(String(match.1)) }
            for match in source.matches(of: #/fields\["([a-z][a-z0-9_]*)"\]/#) { keys.insert(String(match.1)) }
        }
        #expect(keys.count >= 25, "the scan found only \(keys.sorted())")
        for key in keys.sorted() {
            let field = JournalFieldName.forMetadataKey(key)
            #expect(logging.contains("`\(field)`"), "docs/logging.md does not document \(field) (metadata \"\(key)\")")
        }
    }

    @Test func metadataCarriesTheIdAndKeepsExtraFields() {
        let metadata = DaemonEvent.migrated.metadata(["from_version": "1"])
        #expect(metadata["message-id"] == .string("59d40d6d030141028132def856c40c38"))
        #expect(metadata["from_version"] == .string("1"))
    }
}
