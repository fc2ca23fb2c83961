import NIOHTTP1

/// A complete request as a handler sees it: the body is fully received and within the configured limit.
public struct HTTPRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The path as sent, without the query, still percent-encoded (e.g. `/v1/projects/a%20b`).
    public var path: String
    /// The values of the route's `{param}` segments, percent-decoded; empty before routing (in the authorize hook).
    public var pathParameters: [String: String]
    /// The query items in order, percent-decoded, `+` read as a space.
    public var queryItems: [HTTPQueryItem]
    /// The request headers; lookups by name ignore case (`headers.first(name: "if-match")`).
    public var headers: HTTPHeaders
    /// The body bytes; empty when the request has none.
    public var body: [UInt8]
    /// The credentials of the process that opened the connection.
    public var peer: PeerCredentials

    /// Creates a request; the server builds these, tests may too.
    public init(
        method: HTTPMethod, path: String, pathParameters: [String: String] = [:], queryItems: [HTTPQueryItem] = [],
        headers: HTTPHeaders = [:], body: [UInt8] = [], peer: PeerCredentials
    ) {
        self.method = method
        self.path = path
        self.pathParameters = pathParameters
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
        self.peer = peer
    }

    /// The value of the first query item with this name; `""` for a bare `?name`, `nil` when absent.
    public func query(_ name: String) -> String? {
        guard let item = queryItems.first(where: { $0.name == name }) else { return nil }
        return item.value ?? ""
    }
}
