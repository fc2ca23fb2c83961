import Foundation
import Logging
import NIOHTTP1
import StateStore
import StateStoreTesting
import Synchronization
import UnixHTTP
import WorkspaceDaemon
import WorkspaceModel
import WorkspaceSecrets
import WorkspaceStorage

/// The control API in memory with a real secret store in a temporary state directory, its requests going through
/// the daemon's `RequestAuthorizer` and router by way of `HTTPResponder` (the socket server's code path).
final class SecretsAPI: Sendable {
    static let root = PeerCredentials(pid: 10, uid: 0, gid: 0)
    static let nobody = PeerCredentials(pid: 11, uid: 65534, gid: 65534)
    static let reader = PeerCredentials(pid: 12, uid: 1001, gid: 1001)

    let directory: String
    let file: StateFile<Workspace>
    let state: PersistentState<Workspace>
    let secrets: SecretStoreOpening
    let log = CapturedLog()
    let responder: HTTPResponder

    /// A fresh workspace and secret store; `prepare` runs on the state directory before the store is opened.
    init(key: ProvidedKey = .none, prepare: (String) throws -> Void = { _ in }) throws {
        directory = FileManager.default.temporaryDirectory.path + "/wsd-secrets-api-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try prepare(directory)
        file = StateFile(path: directory + "/workspace.json", schema: try WorkspaceSchema.make())
        state = PersistentState(file: file, loaded: try file.load(), scheduler: ManualPersistenceScheduler())
        secrets = SecretStore.open(
            at: SecretsLocation(directory: directory), key: key,
            options: SecretStoreOptions(release: "0.1.0", scheduler: ManualPersistenceScheduler()))
        let logger = log.logger
        let api = ControlAPI(
            state: state, statePath: file.path, uptime: { .seconds(1) }, logger: logger, secrets: secrets)
        // uid 1001 may read by the access lists; the daemon's own uid is not root, so the rules are told apart.
        let authorizer = RequestAuthorizer(
            policy: AccessPolicy(access: AccessConfiguration(readUsers: [1001]), ownUserID: 4242) { _, primary in
                [primary]
            },
            secrets: secrets, logger: logger)
        responder = HTTPResponder(router: api.router(), authorize: { authorizer.authorize($0) })
    }

    deinit {
        try? state.close()
        try? secrets.store?.close()
        secrets.releaseLock()
        file.unlock()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// One exchange.
    struct Exchange {
        var status: HTTPResponseStatus
        var headers: HTTPHeaders
        var body: [UInt8]

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
        var array: [[String: Any]] {
            (try? JSONSerialization.jsonObject(with: Data(body))) as? [[String: Any]] ?? []
        }
        var error: [String: Any] { json["error"] as? [String: Any] ?? [:] }
        var errorCode: String? { error["code"] as? String }
        var errorMessage: String { error["message"] as? String ?? "" }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    func send(
        _ method: HTTPMethod, _ uri: String, _ body: String? = nil, token: String? = nil,
        authorization: [String] = [], peer: PeerCredentials = SecretsAPI.root
    ) async -> Exchange {
        var headers = HTTPHeaders()
        if let token { headers.add(name: "Authorization", value: "Bearer " + token) }
        for value in authorization { headers.add(name: "Authorization", value: value) }
        if body != nil { headers.add(name: "Content-Type", value: "application/json") }
        let response = await responder.respond(
            method, uri, headers: headers, body: Array((body ?? "").utf8), peer: peer)
        return Exchange(status: response.status, headers: response.headers, body: response.body)
    }

    /// Creates a token as root and returns it.
    func createToken(_ name: String = "t", scope: String) async throws -> String {
        let created = await send(.POST, "/v1/tokens", #"{"name": "\#(name)", "scope": "\#(scope)"}"#)
        guard created.status == .created, let token = created.json["token"] as? String else {
            throw CreateFailed(exchange: created.text)
        }
        return token
    }

    struct CreateFailed: Error { var exchange: String }
}
