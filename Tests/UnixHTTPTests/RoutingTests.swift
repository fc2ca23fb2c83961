import Foundation
import NIOHTTP1
import Testing
import UnixHTTP

@Suite struct RoutingTests {
    @Test func parametersAndQueryAreDecoded() async throws {
        try await withServer { _, path in
            let client = UnixHTTPClient(socketPath: path)
            let response = try await client.send(method: .GET, path: "/v1/projects/a%20b/panes?x=1&y=two+words%21&flag")
            #expect(response.status == .ok)
            #expect(String(decoding: response.body, as: UTF8.self) == "id=a b query=x=1;y=two words!;flag=<nil>")
        }
    }

    @Test func literalSegmentsWinOverParameters() async throws {
        try await withServer { _, path in
            let client = UnixHTTPClient(socketPath: path)
            let active = try await client.send(method: .GET, path: "/v1/projects/active")
            #expect(String(decoding: active.body, as: UTF8.self) == "active")
            let other = try await client.send(method: .GET, path: "/v1/projects/p1")
            #expect(String(decoding: other.body, as: UTF8.self) == "project p1")
        }
    }

    @Test func unknownPathIs404WithTheJSONErrorShape() async throws {
        try await withServer { _, path in
            let response = try await UnixHTTPClient(socketPath: path).send(method: .GET, path: "/v2/nothing")
            #expect(response.status == .notFound)
            #expect(response.headers.first(name: "content-type") == "application/json")
            let error = try errorBody(response.body)
            #expect(error.code == "not_found")
            #expect(error.field == nil)
            #expect(String(decoding: response.body, as: UTF8.self).contains(#""field":null"#))
        }
    }

    @Test func wrongMethodIs405WithAllow() async throws {
        try await withServer { _, path in
            let client = UnixHTTPClient(socketPath: path)
            let response = try await client.send(method: .PUT, path: "/v1/projects/p1")
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers.first(name: "allow") == "GET, DELETE")
            #expect(try errorBody(response.body).code == "method_not_allowed")
            let deleted = try await client.send(method: .DELETE, path: "/v1/projects/p1")
            #expect(deleted.status == .noContent)
        }
    }

    @Test func malformedPercentEscapeIs400() async throws {
        try await withServer { _, path in
            let response = try await UnixHTTPClient(socketPath: path).send(method: .GET, path: "/v1/projects/%zz")
            #expect(response.status == .badRequest)
            #expect(try errorBody(response.body).code == "bad_request")
        }
    }

    @Test func errorBodyEscapesAndKeepsTheField() throws {
        let response = HTTPResponse.error(
            .badRequest, code: "invalid_name", message: "name \"a\nb\" has", field: "name")
        #expect(response.headers.first(name: "Content-Type") == "application/json")
        let decoded = try errorBody(response.body)
        #expect(decoded == HTTPErrorBody(code: "invalid_name", message: "name \"a\nb\" has", field: "name"))
    }

    @Test func invalidAndDuplicatePatternsAreRefused() throws {
        var router = HTTPRouter()
        #expect(throws: HTTPRouteError.self) { try router.register(.GET, "v1/x") { _ in text("") } }
        #expect(throws: HTTPRouteError.self) { try router.register(.GET, "/v1/x{id}") { _ in text("") } }
        #expect(throws: HTTPRouteError.self) { try router.register(.GET, "/v1/{id}/{id}") { _ in text("") } }
        try router.register(.GET, "/v1/{a}") { _ in text("") }
        #expect(throws: HTTPRouteError.duplicateRoute(method: "GET", pattern: "/v1/{b}")) {
            try router.register(.GET, "/v1/{b}") { _ in text("") }
        }
        let braces = HTTPRouteError.invalidPattern(
            pattern: "/v1/{}", reason: "segment {} must be a literal or a whole {param}")
        #expect(throws: braces) {
            try router.register(.GET, "/v1/{}") { _ in text("") }
        }
        let badName = HTTPRouteError.invalidPattern(pattern: "/v1/{a}b}", reason: "parameter {a}b} has a bad name")
        #expect(throws: badName) {
            try router.register(.GET, "/v1/{a}b}") { _ in text("") }
        }
        #expect(throws: HTTPRouteError.self) { try router.register(.GET, "/v1/x?y") { _ in text("") } }
        // Another method, a literal where the other has a parameter, or another length: not the same shape.
        try router.register(.POST, "/v1/{c}") { _ in text("") }
        try router.register(.GET, "/v1/all") { _ in text("") }
        try router.register(.GET, "/v1/{a}/tabs") { _ in text("") }
        #expect(throws: HTTPRouteError.duplicateRoute(method: "GET", pattern: "/v1/{z}/tabs")) {
            try router.register(.GET, "/v1/{z}/tabs") { _ in text("") }
        }
        // A parameter's name and a literal segment may be any UTF-8.
        try router.register(.GET, "/v1/café/{näme}") { _ in text("") }
        guard case .found(_, let parameters) = router.match(method: .GET, pathSegments: ["v1", "café", "x"]) else {
            Issue.record("no match for the UTF-8 route")
            return
        }
        #expect(parameters == ["näme": "x"])
    }
}
