import Foundation
import Glibc
import Logging
import NIOHTTP1
import StateStore
import StateStoreTesting
import Testing
import UnixHTTP
import WorkspaceAPI
import WorkspaceClient
import WorkspaceDaemon
import WorkspaceModel
import WorkspaceStorage

/// The control API over a journaled state that keeps history, on a real Unix socket, in process: a fresh state in
/// a temporary directory (manual scheduler: no timed snapshot, so the journal holds every change until a test
/// flushes), an event hub with a chosen ring, and an ``UnixHTTP/HTTPServer`` serving the API's router. Requests
/// go through a real HTTP client on the socket, so the peer the daemon records is this process.
final class HistoryServer: Sendable {
    let directory: String
    let file: StateFile<Workspace>
    let state: PersistentState<Workspace>
    let events: EventHub
    /// The state's clock: the history times each change by its `date`.
    let scheduler = ManualPersistenceScheduler()
    let api: ControlAPI
    let server: HTTPServer

    var socketPath: String { directory + "/c.sock" }
    /// The history's directory beside the state file (HistoryConfiguration: `<name>.history/`).
    var historyDirectory: String { file.path + ".history" }
    /// A client of the socket.
    var client: WorkspaceClient { WorkspaceClient(socketPath: socketPath, timeout: .seconds(30)) }
    /// The lineage, for entity tags.
    var lineage: String { state.lineage.rawValue }
    /// How the daemon names this process when it records a change it asked for.
    static var peer: String { "uid \(getuid()) pid \(getpid())" }

    /// Serves the API over a journaled state keeping `history` (off: none); the hub keeps the latest `ring` events.
    init(history: HistoryConfiguration = HistoryConfiguration(), ring: Int = EventHub.defaultHistorySize) async throws {
        directory = "/tmp/wsd-hist-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // A daemon that has run before, as nearly every start is: the state file it left (revision 0) is where the
        // history begins. (A state that starts without a file begins it at the initial state the start keeps.)
        let first = StateFile(path: directory + "/workspace.json", schema: try WorkspaceSchema.make())
        let before = try PersistentState(
            file: first, loaded: try first.load(), journaling: WorkspaceChange.self, history: history,
            scheduler: ManualPersistenceScheduler())
        try before.saveSynchronously()
        try before.close()
        first.unlock()
        file = StateFile(path: directory + "/workspace.json", schema: try WorkspaceSchema.make())
        let events = EventHub(historySize: ring)
        self.events = events
        state = try PersistentState(
            file: file, loaded: try file.load(), journaling: WorkspaceChange.self, history: history,
            scheduler: scheduler, observer: { events.observe($0) })
        var logger = Logger(label: "history-test")
        logger.logLevel = .warning
        api = ControlAPI(state: state, statePath: file.path, uptime: { .seconds(1) }, logger: logger, events: events)
        server = HTTPServer(
            configuration: HTTPServerConfiguration(socketPath: directory + "/c.sock"), router: api.router(),
            logger: logger)
        try await server.start()
    }

    deinit {
        try? state.close()
        file.unlock()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Shuts the server down and closes the state.
    func stop() async {
        await server.shutdown()
        try? state.close()
    }

    /// One exchange on the socket.
    struct Exchange {
        var status: HTTPResponseStatus
        var headers: HTTPHeaders
        var body: [UInt8]

        /// The body as a JSON object.
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
        /// `error.code` of an error body.
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        /// `error.message` of an error body.
        var errorMessage: String { (json["error"] as? [String: Any])?["message"] as? String ?? "" }
        /// `error.field` of an error body.
        var errorField: String? { (json["error"] as? [String: Any])?["field"] as? String }
        /// `value` of a change response.
        var value: [String: Any] { json["value"] as? [String: Any] ?? [:] }
        /// The body as text, for messages.
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends one request with a real client on the socket and checks that its status is one the route documents.
    func send(
        _ method: HTTPMethod, _ target: String, _ body: String? = nil, headers: [(String, String)] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Exchange {
        var httpHeaders = HTTPHeaders(headers)
        if body != nil { httpHeaders.add(name: "Content-Type", value: "application/json") }
        let response = try await UnixHTTPClient(socketPath: socketPath).send(
            method: method, path: target, headers: httpHeaders, body: Array((body ?? "").utf8))
        if let route = APIRoute.declared(method, target) {
            #expect(
                route.statuses.contains(Int(response.status.code)),
                "\(route) answered \(response.status.code), which docs/openapi.yaml does not list",
                sourceLocation: sourceLocation)
        }
        return Exchange(status: response.status, headers: response.headers, body: response.body)
    }

    /// Creates a project and returns its id.
    func createProject(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let created = try await send(.POST, "/v1/projects", #"{"name": "\#(name)", "layout": "split"}"#)
        #expect(created.status == .created, "\(created.text)", sourceLocation: sourceLocation)
        return try #require(created.value["id"] as? String, sourceLocation: sourceLocation)
    }

    /// Renames the project `id`.
    func rename(_ id: String, to name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let renamed = try await send(.PATCH, "/v1/projects/\(id)", #"{"name": "\#(name)"}"#)
        #expect(renamed.status == .ok, "\(renamed.text)", sourceLocation: sourceLocation)
    }

    /// The workspace as JSON, now or `at` a revision.
    func workspaceJSON(at revision: UInt64? = nil) async throws -> [String: Any] {
        let read = try await send(.GET, "/v1/workspace" + (revision.map { "?at=\($0)" } ?? ""))
        try #require(read.status == .ok, "\(read.text)")
        return try #require(read.json["workspace"] as? [String: Any])
    }

    /// The current workspace, in memory.
    var workspace: Workspace { state.snapshot.model }
    /// The current revision.
    var revision: UInt64 { state.snapshot.revision }

    /// Saves a snapshot now: the journal's segments it drops go to the history.
    func snapshot() throws {
        try state.flushSynchronously()
    }
}
