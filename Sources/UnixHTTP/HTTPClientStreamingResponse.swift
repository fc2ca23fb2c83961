import NIOHTTP1

/// A response received by ``UnixHTTPClient/open(method:path:headers:body:)``: the head at once, the body as it
/// arrives.
public struct HTTPClientStreamingResponse: Sendable {
    /// The status code and reason.
    public var status: HTTPResponseStatus
    /// The response headers; lookups by name ignore case.
    public var headers: HTTPHeaders
    /// The body, chunk by chunk as the server writes it; iterate it once. The connection closes when the body
    /// ends or when the iteration stops (the loop is left, or its task cancelled).
    public let body: HTTPClientResponseBody

    /// Creates a response.
    public init(status: HTTPResponseStatus, headers: HTTPHeaders, body: HTTPClientResponseBody) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
