import NIOCore
import NIOHTTP1

extension UnixHTTPClient {
    /// Sends one request and returns as soon as the response head arrives; the body is read as the server writes
    /// it (``HTTPClientStreamingResponse/body``), e.g. a stream of newline-delimited JSON events.
    ///
    /// ``timeout`` bounds connecting and the wait for the head, not the body: a stream may last as long as the
    /// server keeps it open. `Host: localhost`, `Content-Length` and `Connection: close` are added unless given.
    /// - Throws: ``UnixHTTPClientError`` when no response head arrives.
    public func open(
        method: HTTPMethod, path: String, headers: HTTPHeaders = [:], body: [UInt8] = []
    ) async throws(UnixHTTPClientError) -> HTTPClientStreamingResponse {
        let head = try Self.requestHead(method: method, path: path, headers: headers, bodyCount: body.count)
        return try await exchange { timeout, promise in
            HTTPClientStreamHandler(head: head, body: body, timeout: timeout, promise: promise)
        }
    }
}
