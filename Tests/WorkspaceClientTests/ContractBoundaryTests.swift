import Foundation
import TestSupport
import Testing

/// The contract (WorkspaceAPI) and the records it serves (WorkspaceModel) stay apart from the engine, so that a
/// client links neither the file engine nor swift-crypto.
@Suite("contract boundary")
struct ContractBoundaryTests {
    /// The modules the contract and the record types may import.
    static let allowed: [String: Set<String>] = [
        "WorkspaceAPI": ["Foundation", "NIOHTTP1", "UnixHTTP", "WorkspaceModel"],
        "WorkspaceModel": ["Foundation", "StateCoding", "StateModel"],
        "WorkspaceClient": ["Foundation", "NIOHTTP1", "UnixHTTP", "WorkspaceAPI", "WorkspaceModel"],
    ]

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(
        "the contract, the records and the client import no engine",
        arguments: ["WorkspaceAPI", "WorkspaceModel", "WorkspaceClient"])
    func importsStayInTheirLane(module: String) throws {
        let directory = Self.repository.appendingPathComponent("Sources/\(module)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".swift")
        }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for imported in Self.imports(in: text) {
                #expect(
                    Self.allowed[module]!.contains(imported),
                    "Sources/\(module)/\(file) imports \(imported); the contract must stay apart from the engine")
            }
        }
    }

    @Test("the import scanner sees every form of import")
    func scannerSeesImports() {
        let text = "import Foundation\n@testable import StateStore\npublic import StateModel\n@_exported import X\n"
        #expect(Self.imports(in: text) == ["Foundation", "StateStore", "StateModel", "X"])
    }

    @Test("workspacectl links neither StateStore nor swift-crypto")
    func workspacectlSymbols() throws {
        let binary = try Data(contentsOf: URL(fileURLWithPath: ProductPaths.executable("workspacectl")))
        // Sanity: the symbol table is there (a module it does link shows).
        #expect(binary.range(of: Data("12WorkspaceAPI".utf8)) != nil)
        for marker in ["10StateStore", "CCryptoBoringSSL", "6Crypto"] {
            #expect(binary.range(of: Data(marker.utf8)) == nil, "workspacectl links \(marker)")
        }
    }

    /// The module names of `text`'s import declarations.
    static func imports(in text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard let position = words.firstIndex(of: "import"), position + 1 < words.count,
                words[..<position].allSatisfy({ $0.hasPrefix("@") || $0 == "public" || $0 == "package" })
            else { return nil }
            return String(words[position + 1])
        }
    }
}
