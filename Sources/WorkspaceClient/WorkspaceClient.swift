import Foundation
import NIOHTTP1
import UnixHTTP
import WorkspaceAPI

/// A typed client for workspaced's control API (docs/api.md) on its Unix socket; one connection per call.
///
/// Every method throws ``WorkspaceClientError``: `.refused` carries the daemon's error body, `.unreachable` the
/// socket path and the cause.
public struct WorkspaceClient: Sendable {
    /// The daemon's control socket.
    public var socketPath: String
    /// The longest one call may take, connecting included.
    public var timeout: Duration
    /// An API token (`wsd_…`) sent as `Authorization: Bearer`; `nil` to be judged by peer credentials alone.
    public var token: String?
    let http: UnixHTTPClient
    /// Configured once and shared: `JSONEncoder` and `JSONDecoder` are thread-safe.
    private static let encoder = APICoding.encoder
    private static let decoder = APICoding.decoder

    /// The socket systemd's `workspaced.socket` listens on.
    public static let defaultSocketPath = "/run/workspaced/control.sock"

    /// A client for the daemon at `socketPath`; nothing connects until a call.
    ///
    /// - Parameters:
    ///   - socketPath: The control socket.
    ///   - timeout: The longest one call may take (a durable change waits for a save).
    ///   - token: An API token to send with every call (docs/api.md, "Who may do what").
    public init(
        socketPath: String = WorkspaceClient.defaultSocketPath, timeout: Duration = .seconds(30),
        token: String? = nil
    ) {
        self.socketPath = socketPath
        self.timeout = timeout
        self.token = token
        self.http = UnixHTTPClient(socketPath: socketPath, timeout: timeout)
    }

    /// Calls `route` with its path parameters, the change options (query and headers) and an optional body.
    func call<Response: Decodable>(
        _ route: APIRoute, _ parameters: String..., options: ChangeOptions? = nil, body: (any Encodable)? = nil
    ) async throws(WorkspaceClientError) -> Response {
        let path = route.path(parameters: parameters)
        return try await call(
            route.method, options.map { $0.target(path) } ?? path, headers: options?.headers ?? [], body: body)
    }

    /// Sends one request and decodes a 2xx body as `Response`; refusals and transport failures become
    /// ``WorkspaceClientError``.
    func call<Response: Decodable>(
        _ method: APIMethod, _ target: String, headers: [(String, String)] = [], body: (any Encodable)? = nil,
        as: Response.Type = Response.self
    ) async throws(WorkspaceClientError) -> Response {
        var requestHeaders = HTTPHeaders(headers)
        var bytes: [UInt8] = []
        if let body {
            do {
                bytes = Array(try Self.encoder.encode(body))
            } catch {
                throw .invalidResponse("could not encode the request body: \(error)")
            }
            requestHeaders.add(name: "Content-Type", value: "application/json")
        }
        requestHeaders.add(name: "Accept", value: "application/json")
        if let token { requestHeaders.add(name: "Authorization", value: "Bearer " + token) }
        let response: HTTPClientResponse
        do {
            response = try await http.send(
                method: HTTPMethod(method), path: target, headers: requestHeaders, body: bytes)
        } catch {
            throw Self.transportError(error, socketPath: socketPath)
        }
        return try Self.decode(response, method: method, target: target)
    }

    static func transportError(_ error: UnixHTTPClientError, socketPath: String) -> WorkspaceClientError {
        switch error {
        case .unreachable(_, _, let reason): return .unreachable(socketPath: socketPath, reason: reason)
        case .timedOut(_, let after): return .timedOut(socketPath: socketPath, after: after)
        case .malformedResponse(let reason): return .invalidResponse(reason)
        case .invalidRequest(let reason): return .invalidResponse("the request could not be sent: \(reason)")
        }
    }

    static func decode<Response: Decodable>(
        _ response: HTTPClientResponse, method: APIMethod, target: String
    ) throws(WorkspaceClientError) -> Response {
        let status = Int(response.status.code)
        guard (200..<300).contains(status) else {
            guard let refusal = try? Self.decoder.decode(APIError.self, from: Data(response.body)) else {
                throw .invalidResponse(
                    "\(method) \(target): HTTP \(status) without the API error body: \(excerpt(response.body))")
            }
            throw .refused(status: status, refusal)
        }
        do {
            return try Self.decoder.decode(Response.self, from: Data(response.body))
        } catch {
            throw .invalidResponse(
                "\(method) \(target): HTTP \(status) body is not a \(Response.self): \(error); \(excerpt(response.body))"
            )
        }
    }

    private static func excerpt(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        return body.count > 200 ? text + "…" : text
    }
}
