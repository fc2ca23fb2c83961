import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP/1.1 client for a server on a Unix domain socket; one connection per request.
public struct UnixHTTPClient: Sendable {
    /// The socket the requests go to.
    public var socketPath: String
    /// The longest a request may take, connecting included.
    public var timeout: Duration
    let eventLoopGroup: any EventLoopGroup

    /// Creates a client; nothing connects until ``send(method:path:headers:body:)``.
    ///
    /// - Parameters:
    ///   - socketPath: The server's Unix socket path.
    ///   - timeout: The longest a request may take, connecting included.
    ///   - eventLoopGroup: The event loops for socket I/O.
    public init(
        socketPath: String, timeout: Duration = .seconds(30),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.socketPath = socketPath
        self.timeout = timeout
        self.eventLoopGroup = eventLoopGroup
    }

    /// Sends one request and returns the complete response, whatever its status.
    ///
    /// `Host: localhost`, `Content-Length` and `Connection: close` are added unless given.
    /// - Throws: ``UnixHTTPClientError`` when no response arrives.
    public func send(
        method: HTTPMethod, path: String, headers: HTTPHeaders = [:], body: [UInt8] = []
    ) async throws(UnixHTTPClientError) -> HTTPClientResponse {
        let head = try Self.requestHead(method: method, path: path, headers: headers, bodyCount: body.count)
        return try await exchange { timeout, promise in
            HTTPClientExchangeHandler(head: head, body: body, timeout: timeout, promise: promise)
        }
    }

    /// Connects and installs the handler that `makeHandler` makes for the exchange (given the timeout and the
    /// promise it completes), then waits for that promise: the one path of ``send(method:path:headers:body:)``
    /// and ``open(method:path:headers:body:)``, which differ only in what they wait for.
    func exchange<Response: Sendable, Handler: ChannelHandler>(
        _ makeHandler: @escaping @Sendable (TimeAmount, EventLoopPromise<Response>) -> Handler
    ) async throws(UnixHTTPClientError) -> Response {
        let eventLoop = eventLoopGroup.next()
        let promise = eventLoop.makePromise(of: Response.self)
        let timeout = TimeAmount(self.timeout)
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHTTPClientHandlers()
                    try pipeline.addHandler(makeHandler(timeout, promise))
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
        } catch let error as ConnectionLost {
            throw error.clientError(path: socketPath)
        } catch let error as MalformedResponse {
            throw .malformedResponse(reason: error.reason)
        } catch {
            throw .malformedResponse(reason: "\(error)")
        }
    }

    /// The head of a request: `Host: localhost`, `Content-Length` and `Connection: close` unless given.
    static func requestHead(
        method: HTTPMethod, path: String, headers: HTTPHeaders, bodyCount: Int
    ) throws(UnixHTTPClientError) -> HTTPRequestHead {
        guard path.hasPrefix("/") else { throw .invalidRequest(reason: "the path \(path) does not start with /") }
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: path, headers: headers)
        if !head.headers.contains(name: "Host") { head.headers.add(name: "Host", value: "localhost") }
        if !head.headers.contains(name: "Content-Length") && !head.headers.contains(name: "Transfer-Encoding") {
            head.headers.add(name: "Content-Length", value: String(bodyCount))
        }
        if !head.headers.contains(name: "Connection") { head.headers.add(name: "Connection", value: "close") }
        return head
    }

    func connectError(_ error: any Error) -> UnixHTTPClientError {
        switch error {
        case let error as IOError:
            return .unreachable(path: socketPath, errno: error.errnoCode, reason: errnoDescription(error.errnoCode))
        case ChannelError.connectTimeout:
            return .timedOut(path: socketPath, after: timeout)
        case SocketAddressError.unixDomainSocketPathTooLong:
            return .unreachable(path: socketPath, errno: nil, reason: "the path is too long for a Unix socket")
        default:
            return .unreachable(path: socketPath, errno: nil, reason: "\(error)")
        }
    }
}
