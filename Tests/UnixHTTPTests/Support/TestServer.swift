import Foundation
import Logging
import NIOHTTP1
import StateStoreTesting
import UnixHTTP

/// A router with the routes the tests call.
func fixtureRouter() throws -> HTTPRouter {
    var router = HTTPRouter()
    try router.register(.GET, "/v1/projects/{id}/panes") { request in
        let query = request.queryItems.map { "\($0.name)=\($0.value ?? "<nil>")" }.joined(separator: ";")
        return text("id=\(request.pathParameters["id"] ?? "?") query=\(query)")
    }
    try router.register(.GET, "/v1/projects/active") { _ in text("active") }
    try router.register(.GET, "/v1/projects/{id}") { request in text("project \(request.pathParameters["id"]!)") }
    try router.register(.DELETE, "/v1/projects/{id}") { _ in HTTPResponse(status: .noContent) }
    try router.register(.POST, "/v1/echo") { request in HTTPResponse(status: .ok, body: request.body) }
    try router.register(.GET, "/v1/peer") { request in
        text("\(request.peer.pid) \(request.peer.uid) \(request.peer.gid)")
    }
    try router.register(.GET, "/v1/slow") { request in
        let milliseconds = Int(request.query("ms") ?? "500") ?? 500
        // Time under test: a handler that takes `ms` milliseconds.
        try? await Task.sleep(for: .milliseconds(milliseconds))
        return text("slow done")
    }
    return router
}

func text(_ string: String) -> HTTPResponse {
    HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: Array(string.utf8))
}

/// Runs `body` against a started server on a fresh socket path, then shuts it down.
func withServer(
    configure: (inout HTTPServerConfiguration) -> Void = { _ in },
    authorize: HTTPServer.Authorizer? = nil,
    _ body: (HTTPServer, String) async throws -> Void
) async throws {
    let directory = try TemporaryDirectory(prefix: "uh")
    defer { directory.remove() }
    var configuration = HTTPServerConfiguration(socketPath: directory.file("s.sock"))
    configure(&configuration)
    let server = HTTPServer(
        configuration: configuration, router: try fixtureRouter(), authorize: authorize, logger: quietLogger)
    try await server.start()
    do {
        try await body(server, directory.file("s.sock"))
    } catch {
        await server.shutdown()
        throw error
    }
    await server.shutdown()
}

/// The decoded `{"error": {...}}` of a response, checking the JSON shape strictly (`field` present, maybe null).
func errorBody(_ body: [UInt8]) throws -> HTTPErrorBody {
    let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
    let inner = object?["error"] as? [String: Any]
    guard let inner, object?.count == 1, Set(inner.keys) == ["code", "message", "field"] else {
        throw ShapeError(text: String(decoding: body, as: UTF8.self))
    }
    return try JSONDecoder().decode(HTTPErrorBody.self, from: Data(body))
}

/// A body that is not the library's error shape.
struct ShapeError: Error, CustomStringConvertible {
    let text: String
    var description: String { "not the error shape: \(text)" }
}

/// Logs only warnings and errors, so test output stays readable.
let quietLogger: Logger = {
    var logger = Logger(label: "UnixHTTPTests")
    logger.logLevel = .warning
    return logger
}()
