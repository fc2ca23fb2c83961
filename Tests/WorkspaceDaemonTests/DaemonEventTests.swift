import Foundation
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

    @Test func metadataCarriesTheIdAndKeepsExtraFields() {
        let metadata = DaemonEvent.migrated.metadata(["from_version": "1"])
        #expect(metadata["message-id"] == .string("59d40d6d030141028132def856c40c38"))
        #expect(metadata["from_version"] == .string("1"))
    }
}
