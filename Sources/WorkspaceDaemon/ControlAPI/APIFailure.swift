import NIOHTTP1
import StateStore
import UnixHTTP
import WorkspaceAPI
import WorkspaceModel

/// A refusal on its way to the client: an HTTP status and the JSON error body. Thrown by request parsing and
/// changes, turned into a response in one place.
struct APIFailure: Error, Sendable {
    var status: HTTPResponseStatus
    var error: APIError
    /// Headers the answer carries besides the JSON error (a 412's current `ETag`).
    var headers: HTTPHeaders = [:]

    init(_ status: HTTPResponseStatus, _ code: String, _ message: String, field: String? = nil) {
        self.status = status
        self.error = APIError(code: code, message: message, field: field)
    }

    /// The API's answer to a model refusal.
    init(_ error: WorkspaceError) {
        switch error {
        case .notFound:
            self.init(.notFound, APIErrorCode.notFound, error.description, field: "id")
        case .alreadyExists:
            self.init(.conflict, APIErrorCode.invalidField, error.description, field: "id")
        case .invalid(let field, _):
            self.init(.badRequest, APIErrorCode.invalidField, error.description, field: field)
        case .conflict:
            self.init(.conflict, APIErrorCode.conflict, error.description)
        }
    }

    /// The API's answer to malformed change options (`durable`, `Workspaced-Durable`, `If-Match`).
    init(_ error: ChangeOptionsError) {
        self.init(.badRequest, APIErrorCode.invalidParameter, error.description, field: error.field)
    }

    /// The API's answer to a history refusal for the revision the request's `field` named: 404 when no history is
    /// kept (the message names the configuration keys) or the revision is not reached yet, 410 when it is older
    /// than the history kept (the message names the oldest kept), 500 when a file the read needs is damaged (the
    /// message names it).
    init(_ error: HistoryError, field: String) {
        switch error {
        case .disabled:
            self.init(.notFound, APIErrorCode.historyDisabled, error.description)
        case .pruned:
            self.init(.gone, APIErrorCode.historyPruned, error.description, field: field)
        case .notReached:
            self.init(.notFound, APIErrorCode.notFound, error.description, field: field)
        case .damaged:
            self.init(.internalServerError, APIErrorCode.historyDamaged, error.description)
        }
    }

    /// The API's answer to a persistence refusal.
    init(_ error: PersistenceError) {
        switch error {
        case .closed:
            self.init(.serviceUnavailable, APIErrorCode.unavailable, "the daemon is stopping; the change was refused")
        default:
            self.init(
                .serviceUnavailable, APIErrorCode.notDurable,
                "the change was applied but is not durable yet: \(error)")
        }
    }

    var response: HTTPResponse {
        var response = HTTPResponse.json(status, body: error.encoded())
        for (name, value) in headers { response.headers.replaceOrAdd(name: name, value: value) }
        return response
    }
}
