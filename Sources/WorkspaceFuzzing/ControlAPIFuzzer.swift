import Foundation
import Logging
import NIOHTTP1
import StateStore
import StateStoreTesting
import UnixHTTP
import WorkspaceAPI
import WorkspaceClient
import WorkspaceDaemon
import WorkspaceModel
import WorkspaceStorage

/// The control API's request parsing and validation: the requests of an input (``FuzzRequest``) go through the
/// daemon's routes (``WorkspaceDaemon/ControlAPI`` behind ``UnixHTTP/HTTPResponder``, the code path the socket
/// server runs) on a small workspace, one in-memory disk per input. Promises:
/// - no answer is a 500 (a request the routes did not validate);
/// - every error (4xx, 5xx) has a JSON body with `error.code`;
/// - a declared route answers only with a status its ``WorkspaceAPI/APIRoute`` lists (docs/openapi.yaml);
/// - whatever was accepted, the state saved at the end loads again as it is and equals the state served.
package final class ControlAPIFuzzer: FuzzChecking {
    static let name = "workspace.json"
    static let root = PeerCredentials(pid: 1, uid: 0, gid: 0)
    /// The workspace each input starts from: a project with a pane and a tab, a favorite and an owner, with fixed
    /// ids that the seeds use.
    static let seed = Data(
        #"""
        {"activeProjectID":"11111111-1111-4111-8111-111111111111","favorites":[{"createdAt":"2025-01-02T03:04:05Z",\#
        "id":"31111111-1111-4111-8111-111111111111","name":"Flight","path":"/apollo/flight"}],"minReaderVersion":4,\#
        "owner":{"alias":"margaret","email":"margaret@example.com"},"projects":[{"id":\#
        "11111111-1111-4111-8111-111111111111","layout":"quad","name":"Apollo","panes":[{"focusedTabIndex":0,\#
        "folder":"/apollo","id":"21111111-1111-4111-8111-111111111111","tabs":[{"folder":"/apollo/guidance",\#
        "id":"41111111-1111-4111-8111-111111111111"}],"viewMode":"columns"}]}],"version":4}
        """#.utf8)

    let schema: StateSchema<Workspace>
    let logger = Logger(label: "workspaced.fuzz") { _ in SwiftLogNoOpLogHandler() }

    /// A checker with the workspace schema.
    package init() throws {
        schema = try WorkspaceSchema.make()
    }

    func open(_ disk: FuzzFileSystem) -> StateFile<Workspace> {
        StateFile(
            path: FuzzFileSystem.directory + "/" + Self.name, schema: schema, fileSystem: disk.disk,
            now: { FuzzFileSystem.fixedNow })
    }

    /// Sends the requests of `input` and checks every answer and the state saved at the end.
    package func check(_ input: Data) async -> FuzzFinding? {
        await exchange(input).finding
    }

    /// The statuses answered to the requests of `input`, and the first broken promise.
    func exchange(_ input: Data) async -> (statuses: [Int], finding: FuzzFinding?) {
        var statuses: [Int] = []
        let disk = FuzzFileSystem([Self.name: Self.seed])
        let file = open(disk)
        defer { file.unlock() }
        let state: PersistentState<Workspace>
        do {
            state = PersistentState(file: file, loaded: try file.load(), scheduler: ManualPersistenceScheduler())
        } catch {
            return (statuses, finding("the seed workspace did not load: \(error)"))
        }
        let api = ControlAPI(state: state, statePath: file.path, uptime: { .seconds(1) }, logger: logger)
        let responder = HTTPResponder(router: api.router(), maximumBodySize: 1_048_576)
        for request in FuzzRequest.parseAll(Array(input)) {
            let response = await responder.respond(
                request.method, request.uri, headers: request.headers, body: request.body, peer: Self.root)
            statuses.append(Int(response.status.code))
            if let problem = Self.problem(with: response, to: request) { return (statuses, finding(problem)) }
        }
        return (statuses, checkSaved(state, served: state.read { $0 }, disk))
    }

    /// What is wrong with `response` to `request`, if anything.
    static func problem(with response: HTTPResponse, to request: FuzzRequest) -> String? {
        let code = Int(response.status.code)
        let exchange = "\(request.method.rawValue) \(request.uri) answered \(code)"
        if code == 500 { return "\(exchange): \(String(decoding: response.body, as: UTF8.self))" }
        if code >= 400 {
            let json = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            guard (json?["error"] as? [String: Any])?["code"] is String else {
                return "\(exchange) without a JSON error: \(String(decoding: response.body.prefix(200), as: UTF8.self))"
            }
        }
        if let route = APIRoute.declared(request.method, request.uri), !route.statuses.contains(code) {
            return "\(exchange), which \(route) does not list"
        }
        return nil
    }

    /// Closes `state` (its flush) and loads the file again: it must load as it is, equal to what was served.
    private func checkSaved(
        _ state: PersistentState<Workspace>, served: Workspace, _ disk: FuzzFileSystem
    ) -> FuzzFinding? {
        do {
            try state.close()
        } catch {
            return finding("the final save failed: \(error)")
        }
        state.file.unlock()
        let reopened = open(disk)
        defer { reopened.unlock() }
        do {
            let reloaded = try reopened.load()
            guard reloaded.report.source == .file, reloaded.report.salvage == nil else {
                return finding("the saved workspace loaded as \(reloaded.report.source)")
            }
            return reloaded.model == served ? nil : finding("the saved workspace is not the one served")
        } catch {
            return finding("the saved workspace does not load: \(error)")
        }
    }

    private func finding(_ message: String) -> FuzzFinding {
        FuzzFinding(.controlAPI, message)
    }
}
