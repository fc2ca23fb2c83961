import Foundation
import NIOHTTP1
import Testing
import UnixHTTP
import WorkspaceAPI
import WorkspaceDaemon

/// The operations of docs/openapi.yaml: method, path and the statuses each documents.
struct DocumentedOperation: Hashable, CustomStringConvertible {
    var method: String
    var path: String
    var statuses: [Int]

    var description: String { "\(method) \(path)" }

    /// Reads the `paths:` section of docs/openapi.yaml (two-space indents, as written there).
    static func load() throws -> [DocumentedOperation] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/openapi.yaml"), encoding: .utf8)
        var operations: [DocumentedOperation] = []
        var inPaths = false
        var path: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line == "paths:" {
                inPaths = true
                continue
            }
            guard inPaths else { continue }
            if let first = line.first, first != " " { break }
            if line.hasPrefix("  /"), !line.hasPrefix("   "), line.hasSuffix(":") {
                path = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":"),
                let path,
                ["get", "put", "post", "patch", "delete", "head"].contains(
                    line.trimmingCharacters(in: .whitespaces).dropLast())
            {
                let method = String(line.trimmingCharacters(in: .whitespaces).dropLast()).uppercased()
                operations.append(DocumentedOperation(method: method, path: path, statuses: []))
            } else if line.hasPrefix("        "), !line.hasPrefix("         "), !operations.isEmpty {
                let key = line.trimmingCharacters(in: .whitespaces).prefix { $0 != ":" }
                    .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                if key.count == 3, let status = Int(key) { operations[operations.count - 1].statuses.append(status) }
            }
        }
        return operations
    }
}

@Suite("One API contract: APIRoute, the router and docs/openapi.yaml")
struct APIContractTests {
    @Test func everyRouteIsDocumentedAndEveryDocumentedRouteIsARoute() throws {
        let documented = try DocumentedOperation.load()
        #expect(documented.count >= APIRoute.all.count, "the parser found \(documented.count) operations")
        let routes = Set(APIRoute.all.map(\.description))
        let operations = Set(documented.map(\.description))
        #expect(routes.subtracting(operations).isEmpty, "served but not documented: \(routes.subtracting(operations))")
        #expect(operations.subtracting(routes).isEmpty, "documented but not served: \(operations.subtracting(routes))")
        #expect(APIRoute.all.count == routes.count, "a route is declared twice")
    }

    @Test func everyRouteDocumentsExactlyTheStatusesItDeclares() throws {
        let documented = Dictionary(
            try DocumentedOperation.load().map { ($0.description, $0.statuses.sorted()) },
            uniquingKeysWith: { a, _ in a })
        for route in APIRoute.all {
            #expect(documented[route.description] == route.statuses, "\(route)")
        }
    }

    @Test func theDaemonsRouterServesEveryRoute() throws {
        let router = try InProcessAPI().api.router()
        for route in APIRoute.all {
            let segments = route.path(parameters: ["11111111-1111-4111-8111-111111111111"]).split(
                separator: "/", omittingEmptySubsequences: false
            ).dropFirst().map(String.init)
            guard case .found = router.match(method: HTTPMethod(route.method), pathSegments: segments) else {
                Issue.record("the daemon does not serve \(route)")
                continue
            }
        }
    }

    @Test func pathsArePercentEncodedSegments() {
        #expect(APIRoute.project.path("a b/c") == "/v1/projects/a%20b%2Fc")
        #expect(APIRoute.createPane.path("x") == "/v1/projects/x/panes")
        #expect(APIRoute.status.path() == "/v1/status")
    }
}
