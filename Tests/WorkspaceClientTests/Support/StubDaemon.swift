import Foundation
import Logging
import NIOHTTP1
import Synchronization
import UnixHTTP

/// One request as the stub daemon received it.
struct RecordedRequest: Sendable {
    var method: String
    var path: String
    var query: [String: String]
    var ifMatch: String?
    var contentType: String?
    var body: [UInt8]

    /// The path with the query as sent, e.g. `/v1/projects?durable=true`.
    var target: String {
        query.isEmpty
            ? path
            : path + "?"
                + query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: "&")
    }

    /// The body parsed as JSON (`nil` when empty or not JSON).
    var json: NSDictionary? {
        guard !body.isEmpty else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(body))) as? NSDictionary
    }
}

/// A stand-in for workspaced: every route of docs/api.md, each recording the request and answering with
/// whatever `reply` says. Runs on a fresh socket in a temporary directory.
final class StubDaemon: Sendable {
    /// The routes of docs/api.md.
    static let routes: [(HTTPMethod, String)] = [
        (.GET, "/v1/status"), (.GET, "/v1/workspace"), (.GET, "/v1/projects"), (.POST, "/v1/projects"),
        (.GET, "/v1/projects/{id}"), (.PATCH, "/v1/projects/{id}"), (.DELETE, "/v1/projects/{id}"),
        (.POST, "/v1/projects/{id}/panes"), (.PATCH, "/v1/panes/{id}"), (.DELETE, "/v1/panes/{id}"),
        (.POST, "/v1/panes/{id}/tabs"), (.DELETE, "/v1/tabs/{id}"), (.POST, "/v1/tabs/{id}/focus"),
        (.GET, "/v1/favorites"), (.POST, "/v1/favorites"), (.DELETE, "/v1/favorites/{id}"),
        (.GET, "/v1/active-project"), (.PUT, "/v1/active-project"), (.GET, "/v1/owner"), (.PATCH, "/v1/owner"),
        (.POST, "/v1/flush"), (.GET, "/v1/history"), (.POST, "/v1/restore"), (.POST, "/v1/projects/{id}/restore"),
    ]

    /// Logs only warnings and worse, so test output stays readable.
    static let quietLogger: Logger = {
        var logger = Logger(label: "stub-daemon")
        logger.logLevel = .warning
        return logger
    }()

    let directory: String
    var socketPath: String { directory + "/s.sock" }
    private let server: HTTPServer
    private let log: RequestLog

    /// Starts a stub whose every route answers `reply(request)`.
    init(reply: @escaping @Sendable (RecordedRequest) async -> HTTPResponse) async throws {
        var template = Array("/tmp/wc-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw POSIXError(.EIO) }
        directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let log = RequestLog()
        var router = HTTPRouter()
        for (method, pattern) in Self.routes {
            try router.register(method, pattern) { request in
                var query: [String: String] = [:]
                for item in request.queryItems { query[item.name] = item.value ?? "" }
                let record = RecordedRequest(
                    method: request.method.rawValue, path: request.path, query: query,
                    ifMatch: request.headers.first(name: "If-Match"),
                    contentType: request.headers.first(name: "Content-Type"), body: request.body)
                log.append(record)
                return await reply(record)
            }
        }
        self.log = log
        server = HTTPServer(
            configuration: HTTPServerConfiguration(socketPath: directory + "/s.sock"), router: router,
            logger: Self.quietLogger)
        try await server.start()
    }

    /// A stub answering every request with `status` and the JSON `body`.
    convenience init(status: HTTPResponseStatus = .ok, json body: String) async throws {
        try await self.init { _ in HTTPResponse.json(status, body: Array(body.utf8)) }
    }

    /// Every request received so far.
    var requests: [RecordedRequest] { log.all }

    /// Stops the server and removes the directory.
    func stop() async {
        await server.shutdown()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// The requests a stub received, shared with its route handlers.
final class RequestLog: Sendable {
    private let entries = Mutex<[RecordedRequest]>([])

    func append(_ request: RecordedRequest) { entries.withLock { $0.append(request) } }

    var all: [RecordedRequest] { entries.withLock { $0 } }
}

/// Runs `body` with a started stub, stopping it afterwards even when `body` throws.
func withStub<T>(
    _ stub: StubDaemon, _ body: (StubDaemon) async throws -> T
) async throws -> T {
    do {
        let result = try await body(stub)
        await stub.stop()
        return result
    } catch {
        await stub.stop()
        throw error
    }
}
