import Foundation
import TestSupport
import Testing

/// The contract (WorkspaceAPI) and the records it serves (WorkspaceModel) stay apart from the engine, so that a
/// client links neither the file engine nor swift-crypto; the contract also stays apart from the transport
/// (UnixHTTP, SwiftNIO), whose types the daemon and the client map its own to.
@Suite("contract boundary")
struct ContractBoundaryTests {
    /// The modules the contract and the record types may import.
    static let allowed: [String: Set<String>] = [
        "WorkspaceAPI": ["FoundationEssentials", "WorkspaceModel"],
        "WorkspaceModel": ["FoundationEssentials", "StateCoding", "StateModel"],
        "WorkspaceClient": ["Foundation", "NIOHTTP1", "UnixHTTP", "WorkspaceAPI", "WorkspaceModel"],
    ]

    static let repository = SourceImports.repository

    static func sources(of module: String) throws -> [(file: String, text: String)] {
        try SourceImports.sources(of: module)
    }

    static func imports(in text: String) -> [String] {
        SourceImports.imports(in: text)
    }

    @Test(
        "the contract, the records and the client import no engine",
        arguments: ["WorkspaceAPI", "WorkspaceModel", "WorkspaceClient"])
    func importsStayInTheirLane(module: String) throws {
        let sources = try Self.sources(of: module)
        #expect(!sources.isEmpty)
        for (file, text) in sources {
            for imported in Self.imports(in: text) {
                #expect(
                    Self.allowed[module]!.contains(imported),
                    "Sources/\(module)/\(file) imports \(imported); the contract must stay apart from the engine")
            }
        }
    }

    @Test("the contract imports no transport: no NIO module, no UnixHTTP")
    func contractImportsNoTransport() throws {
        let sources = try Self.sources(of: "WorkspaceAPI")
        #expect(!sources.isEmpty)
        for (file, text) in sources {
            for imported in Self.imports(in: text) {
                #expect(
                    !Self.isTransport(imported),
                    "Sources/WorkspaceAPI/\(file) imports \(imported), a transport module")
            }
        }
    }

    @Test("Package.swift gives the contract no transport dependency")
    func contractTargetHasNoTransportDependency() throws {
        let manifest = try String(
            contentsOf: Self.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = try #require(Self.targetDeclaration("WorkspaceAPI", in: manifest))
        // Sanity: the declaration found is the contract's, with its one dependency.
        #expect(declaration.contains("\"WorkspaceModel\""))
        for transport in ["UnixHTTP", "swift-nio", "NIO"] {
            #expect(
                !declaration.contains(transport),
                "the WorkspaceAPI target depends on \(transport): \(declaration)")
        }
    }

    @Test("the import scanner sees every form of import")
    func scannerSeesImports() {
        let text = """
            import Foundation
            @testable import StateStore
            public import StateModel
            @_exported import X
            import struct NIOCore.ByteBuffer
            internal import NIOHTTP1.HTTPTypes
              import UnixHTTP
            // import NotThis
            """
        #expect(
            Self.imports(in: text) == [
                "Foundation", "StateStore", "StateModel", "X", "NIOCore", "NIOHTTP1", "UnixHTTP",
            ])
    }

    @Test("the transport check names every NIO module and UnixHTTP, and only them")
    func transportNames() {
        for module in ["NIO", "NIOCore", "NIOPosix", "NIOHTTP1", "NIOExtras", "_NIODataStructures", "UnixHTTP"] {
            #expect(Self.isTransport(module), "\(module)")
        }
        for module in ["Foundation", "WorkspaceModel", "StateCoding", "Dispatch"] {
            #expect(!Self.isTransport(module), "\(module)")
        }
    }

    @Test("the manifest scanner finds a target's whole declaration")
    func manifestScanner() {
        let manifest = """
            .target(name: "Other", dependencies: ["WorkspaceAPI"]),
            .target(
                name: "WorkspaceAPI",
                dependencies: ["WorkspaceModel", traitProduct("NIOHTTP1", "swift-nio")]
            ),
            .target(name: "Next", dependencies: ["UnixHTTP"]),
            """
        #expect(
            Self.targetDeclaration("WorkspaceAPI", in: manifest)
                == """
                .target(
                    name: "WorkspaceAPI",
                    dependencies: ["WorkspaceModel", traitProduct("NIOHTTP1", "swift-nio")]
                )
                """)
        #expect(Self.targetDeclaration("Missing", in: manifest) == nil)
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

    /// Every Swift file of `Sources/module`, subdirectories included: its path there and its text.
    /// Whether `module` is the transport: a SwiftNIO module (`NIO…`, `_NIO…`) or UnixHTTP.
    static func isTransport(_ module: String) -> Bool {
        module.hasPrefix("NIO") || module.hasPrefix("_NIO") || module == "UnixHTTP"
    }

    /// The text of the `.target(...)` in `manifest` whose name is `name`, from `.target(` to its closing
    /// parenthesis; `nil` when there is none.
    static func targetDeclaration(_ name: String, in manifest: String) -> String? {
        let text = Array(manifest.utf8)
        let opening = Array(".target(".utf8)
        var start = 0
        while start + opening.count <= text.count {
            guard text[start..<(start + opening.count)].elementsEqual(opening) else {
                start += 1
                continue
            }
            var depth = 0
            var end = start + opening.count - 1
            while end < text.count {
                if text[end] == UInt8(ascii: "(") { depth += 1 }
                if text[end] == UInt8(ascii: ")") { depth -= 1 }
                if depth == 0 { break }
                end += 1
            }
            guard end < text.count else { return nil }
            let declaration = String(decoding: text[start...end], as: UTF8.self)
            let words = declaration.dropFirst(opening.count).split(whereSeparator: { " \n,".contains($0) })
            if words.map(String.init).starts(with: ["name:", "\"\(name)\""]) { return declaration }
            start = end + 1
        }
        return nil
    }
}
