import NIOHTTP1

/// A complete response received by ``UnixHTTPClient``.
public struct HTTPClientResponse: Sendable {
    /// The status code and reason.
    public var status: HTTPResponseStatus
    /// The response headers; lookups by name ignore case.
    public var headers: HTTPHeaders
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: HTTPResponseStatus, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
