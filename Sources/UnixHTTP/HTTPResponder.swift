import NIOHTTP1

/// Turns a received request into a response: parses the target, asks the authorize hook, routes, and produces
/// the library's own JSON errors (400, 404, 405, 413).
///
/// ``HTTPServer`` runs every request from its socket through one; a test (or an embedding program) can run
/// requests through the same code path in memory, with no socket, process or event loop:
///
/// ```swift
/// let responder = HTTPResponder(router: api.router(), authorize: authorizer, maximumBodySize: 1 << 20)
/// let response = await responder.respond(.GET, "/v1/status", peer: PeerCredentials(pid: 1, uid: 0, gid: 0))
/// ```
public struct HTTPResponder: Sendable {
    let router: HTTPRouter
    let authorize: HTTPServer.Authorizer?
    let maximumBodySize: Int

    /// A responder for `router`, asking `authorize` first; bodies over `maximumBodySize` get 413.
    public init(router: HTTPRouter, authorize: HTTPServer.Authorizer? = nil, maximumBodySize: Int = .max) {
        self.router = router
        self.authorize = authorize
        self.maximumBodySize = maximumBodySize
    }

    /// The response to one complete request, as the server would send it (an in-memory transport).
    ///
    /// - Parameters:
    ///   - uri: The request target, `/path?query` (or absolute form).
    ///   - peer: The credentials the server would read with `SO_PEERCRED`.
    public func respond(
        _ method: HTTPMethod, _ uri: String, headers: HTTPHeaders = [:], body: [UInt8] = [], peer: PeerCredentials
    ) async -> HTTPResponse {
        guard body.count <= maximumBodySize else { return Self.bodyTooLarge(limit: maximumBodySize) }
        return await respond(
            head: HTTPRequestHead(version: .http1_1, method: method, uri: uri, headers: headers), body: body,
            peer: peer)
    }

    func respond(head: HTTPRequestHead, body: [UInt8], peer: PeerCredentials) async -> HTTPResponse {
        let target = Self.originForm(head.uri).split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = target[0]
        guard path.hasPrefix("/") else {
            return .error(.badRequest, code: "bad_request", message: "the request target must be an absolute path")
        }
        guard let queryItems = target.count == 2 ? PercentDecoding.queryItems(target[1]) : [] else {
            return .error(.badRequest, code: "bad_request", message: "the query has a malformed percent escape")
        }
        var segments: [String] = []
        for piece in path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            guard let decoded = PercentDecoding.decode(piece) else {
                return .error(.badRequest, code: "bad_request", message: "the path has a malformed percent escape")
            }
            segments.append(decoded)
        }
        var request = HTTPRequest(
            method: head.method, path: String(path), queryItems: queryItems, headers: head.headers, body: body,
            peer: peer)
        if let authorize, let refusal = await authorize(request) {
            return refusal
        }
        switch router.match(method: head.method, pathSegments: segments) {
        case .found(let handler, let parameters):
            request.pathParameters = parameters
            return await handler(request)
        case .methodNotAllowed(let allowed):
            let names = allowed.map(\.rawValue)
            var response = HTTPResponse.error(
                .methodNotAllowed, code: "method_not_allowed",
                message: "\(head.method.rawValue) is not allowed on \(path); use \(names.joined(separator: ", "))")
            response.headers.add(name: "Allow", value: names.joined(separator: ", "))
            return response
        case .notFound:
            return .error(.notFound, code: "not_found", message: "no route for \(path)")
        }
    }

    /// `/path?query` of an absolute-form target (`http://localhost/path?query`, which HTTP/1.1 servers must
    /// accept); other targets unchanged.
    static func originForm(_ uri: String) -> Substring {
        for scheme in ["http://", "https://"] where uri.lowercased().hasPrefix(scheme) {
            let afterScheme = uri.dropFirst(scheme.count)
            return afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? "/"
        }
        return Substring(uri)
    }

    /// 413 for a body over the limit.
    static func bodyTooLarge(limit: Int) -> HTTPResponse {
        .error(.payloadTooLarge, code: "body_too_large", message: "the request body exceeds \(limit) bytes")
    }

    /// 400 for bytes that are not HTTP/1.1.
    static func malformed(_ error: any Error) -> HTTPResponse {
        .error(.badRequest, code: "malformed_request", message: "the request is not valid HTTP/1.1: \(error)")
    }
}
