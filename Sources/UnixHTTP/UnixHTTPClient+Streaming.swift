import NIOCore
import NIOHTTP1
import NIOPosix

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
        let eventLoop = eventLoopGroup.next()
        let promise = eventLoop.makePromise(of: HTTPClientStreamingResponse.self)
        let timeout = TimeAmount(self.timeout)
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(timeout)
            .channelInitializer { [head] channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHTTPClientHandlers()
                    try pipeline.addHandler(
                        HTTPClientStreamHandler(head: head, body: body, timeout: timeout, promise: promise))
                }
            }
        do {
            _ = try await bootstrap.connect(unixDomainSocketPath: socketPath).get()
        } catch {
            promise.fail(error)
            throw connectError(error)
        }
        do {
            return try await promise.futureResult.get()
        } catch is ClientTimeout {
            throw .timedOut(path: socketPath, after: self.timeout)
        } catch let error as MalformedResponse {
            throw .malformedResponse(reason: error.reason)
        } catch {
            throw .malformedResponse(reason: "\(error)")
        }
    }
}
