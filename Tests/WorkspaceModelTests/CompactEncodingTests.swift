import Foundation
import TestSupport
import Testing

@testable import StateStore
@testable import WorkspaceModel

/// The codec writes a workspace with its compact encoder: the same bytes `JSONEncoder` gives, for every fixture
/// that loads (unknown fields, upper-case ids, fractional seconds, newer versions) and a large generated one.
@Suite("Workspace files: the compact encoder writes JSONEncoder's bytes", .heavy)
struct CompactEncodingTests {
    static var fixturePaths: [String] {
        let root = Fixtures.root
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".json") && !$0.hasPrefix("snapshots/") }.sorted()
    }

    @Test func everyFixtureThatLoadsIsWrittenAsJSONEncoderWritesIt() throws {
        // Read through `Codable`: a direct read keeps unknown fields' text, which `JSONEncoder` cannot write.
        var codec = try workspaceCodec()
        codec.readsDirectly = false
        var compared = 0
        for path in Self.fixturePaths {
            guard let decoded = try? codec.decode(try Fixtures.data(path), salvaging: true) else { continue }
            let compact = try codec.encode(decoded.model, version: nil, minReaderVersion: nil, compact: true)
            let reference = try codec.encode(decoded.model, version: nil, minReaderVersion: nil, compact: false)
            #expect(compact == reference, "\(path)")
            compared += 1
        }
        #expect(compared >= 15, "only \(compared) fixtures loaded")
    }

    @Test func aLargeWorkspaceIsWrittenAsJSONEncoderWritesIt() throws {
        var workspace = Workspace()
        for index in 0..<300 {
            let project = try workspace.createProject(name: "project \(index) \"quoted\" / é", layout: .quad)
            for _ in 0..<3 {
                let pane = try workspace.addPane(toProject: project.id, folder: "/srv/\(index)")
                try workspace.openTab(inPane: pane.id, folder: "/srv/\(index)/a b")
                try workspace.openTab(inPane: pane.id, folder: "/srv/\(index)/tab")
            }
            _ = try workspace.addFavorite(name: "favorite \(index)", path: "/f/\(index)", createdAt: Date())
        }
        let codec = try workspaceCodec()
        let compact = try codec.encode(workspace, version: nil, minReaderVersion: nil, compact: true)
        let reference = try codec.encode(workspace, version: nil, minReaderVersion: nil, compact: false)
        #expect(compact == reference)
        #expect(compact.count > 100_000)
    }
}
