import Foundation
import NIOHTTP1
import StateStore
import StateStoreTesting
import Testing
import UnixHTTP
import WorkspaceAPI
import WorkspaceDaemon
import WorkspaceModel
import WorkspaceStorage

/// The control API in memory: a real state file in a temporary directory behind a fault-injecting file system, a
/// manual scheduler (no timed save unless a test advances it), and requests through `HTTPResponder`, the code
/// path the socket server runs. No process, no socket, no sleeping.
final class InProcessAPI: Sendable {
    static let root = PeerCredentials(pid: 1, uid: 0, gid: 0)

    let directory: String
    let fileSystem: FaultInjectingFileSystem
    let scheduler: ManualPersistenceScheduler
    let file: StateFile<Workspace>
    let state: PersistentState<Workspace>
    let api: ControlAPI
    let responder: HTTPResponder

    /// A fresh API; `seed` (a state file's bytes) is written first when given.
    init(seed: Data? = nil, maximumBodySize: Int = 1_048_576) throws {
        directory = FileManager.default.temporaryDirectory.path + "/wsd-inprocess-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if let seed { try seed.write(to: URL(fileURLWithPath: directory + "/workspace.json")) }
        fileSystem = FaultInjectingFileSystem()
        scheduler = ManualPersistenceScheduler()
        file = StateFile(
            path: directory + "/workspace.json", schema: try WorkspaceSchema.make(), fileSystem: fileSystem)
        state = PersistentState(file: file, loaded: try file.load(), scheduler: scheduler)
        api = ControlAPI(state: state, statePath: file.path, uptime: { .seconds(1) }, logger: .init(label: "test"))
        responder = HTTPResponder(router: api.router(), maximumBodySize: maximumBodySize)
    }

    deinit {
        try? state.close()
        file.unlock()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// One exchange.
    struct Exchange {
        var status: HTTPResponseStatus
        var headers: HTTPHeaders
        var body: [UInt8]

        /// The body as a JSON object.
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
        }
        /// The body as a JSON array.
        var array: [[String: Any]] {
            (try? JSONSerialization.jsonObject(with: Data(body))) as? [[String: Any]] ?? []
        }
        /// `error.code` of an error body.
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        /// `value` of a change response.
        var value: [String: Any] { json["value"] as? [String: Any] ?? [:] }
    }

    func send(
        _ method: HTTPMethod, _ uri: String, _ body: String? = nil, headers: [(String, String)] = [],
        peer: PeerCredentials = InProcessAPI.root
    ) async -> Exchange {
        var httpHeaders = HTTPHeaders()
        for (name, value) in headers { httpHeaders.add(name: name, value: value) }
        if body != nil { httpHeaders.add(name: "Content-Type", value: "application/json") }
        let response = await responder.respond(
            method, uri, headers: httpHeaders, body: Array((body ?? "").utf8), peer: peer)
        if let route = APIRoute.declared(method, uri) {
            #expect(
                route.statuses.contains(Int(response.status.code)),
                "\(route) answered \(response.status.code), which APIRoute (and docs/openapi.yaml) does not list")
        }
        return Exchange(status: response.status, headers: response.headers, body: response.body)
    }

    /// The state file on disk as JSON, or nil when there is none.
    func onDisk() -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
}
