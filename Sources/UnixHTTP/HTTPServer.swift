import Logging
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix
import Synchronization

/// An HTTP/1.1 server on a Unix domain socket (or, for what anyone may read, a TCP port): routes requests to async
/// handlers, refuses oversized and malformed requests with JSON errors, reports each peer's credentials and shuts
/// down gracefully.
public final class HTTPServer: Sendable {
    /// Runs before routing for every request (whose `pathParameters` are still empty): `nil` lets the request
    /// through, a response is sent instead of routing.
    public typealias Authorizer = @Sendable (HTTPRequest) async -> HTTPResponse?

    private enum State: Sendable {
        case idle
        case starting
        /// Bound and listening; connections wait in the socket's backlog until the server accepts.
        case listening(Listener)
        case running(Listener)
        case stopped

        /// The state as an error names it.
        var name: String {
            switch self {
            case .idle: "idle"
            case .starting: "starting"
            case .listening: "listening"
            case .running: "running"
            case .stopped: "stopped"
            }
        }

        /// The listener of a server that is listening or running.
        var listener: Listener? {
            switch self {
            case .listening(let listener), .running(let listener): listener
            case .idle, .starting, .stopped: nil
            }
        }
    }

    private struct Listener: Sendable {
        let channel: any Channel
        let socketFile: UnixSocketFile?
        let quiescing: ServerQuiescingHelper
    }

    /// The limits and default socket path.
    public let configuration: HTTPServerConfiguration
    /// What answers each request: set by the initializer or by ``serve(router:authorize:)``, read once per
    /// connection.
    private let responder: ResponderSlot
    private let group: any EventLoopGroup
    private let logger: Logger
    private let state = Mutex<State>(.idle)
    /// Set by ``removeSocketFileBeforeExit()``: a bind that completes after it removes the file it made.
    private let socketFileUnwanted = Atomic<Bool>(false)
    private let connections = ConnectionCount()

    /// Creates a server; nothing listens until ``start()`` or ``start(binding:)``.
    ///
    /// - Parameters:
    ///   - configuration: Socket path, body limit, socket file mode and timeouts.
    ///   - router: The routes.
    ///   - authorize: An optional hook that may refuse a request before routing.
    ///   - eventLoopGroup: The event loops for socket I/O (handlers run on Swift concurrency, not on these).
    ///   - logger: Where start, stale-socket removal and shutdown are logged.
    public init(
        configuration: HTTPServerConfiguration, router: HTTPRouter, authorize: Authorizer? = nil,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "UnixHTTP")
    ) {
        self.configuration = configuration
        self.responder = ResponderSlot(
            HTTPResponder(router: router, authorize: authorize, maximumBodySize: configuration.maximumBodySize))
        self.group = eventLoopGroup
        self.logger = logger
    }

    /// Creates a server whose routes come later: ``listen(binding:)`` binds its socket, where connections wait,
    /// and ``serve(router:authorize:)`` starts accepting them. A program that must load something before it can
    /// answer binds first, so that the socket exists, and clients wait instead of being refused, while it loads.
    ///
    /// - Parameters:
    ///   - configuration: Socket path, body limit, socket file mode and timeouts.
    ///   - eventLoopGroup: The event loops for socket I/O (handlers run on Swift concurrency, not on these).
    ///   - logger: Where start, stale-socket removal and shutdown are logged.
    public init(
        configuration: HTTPServerConfiguration,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "UnixHTTP")
    ) {
        self.configuration = configuration
        self.responder = ResponderSlot(nil)
        self.group = eventLoopGroup
        self.logger = logger
    }

    /// Binds ``HTTPServerConfiguration/socketPath`` and starts accepting connections.
    public func start() async throws(HTTPServerError) {
        try await start(binding: .path(configuration.socketPath))
    }

    /// Starts accepting connections on a new socket at a path or on an inherited listening descriptor, with the
    /// routes given to the initializer.
    ///
    /// - Throws: ``HTTPServerError`` naming the path or descriptor when the socket cannot be used;
    ///   ``HTTPServerError/notStartable(state:)`` when the server has no routes yet.
    public func start(binding: HTTPServerBinding) async throws(HTTPServerError) {
        guard responder.current != nil else { throw .notStartable(state: "without routes") }
        try await listen(binding: binding)
        try await accept()
    }

    /// Binds a new socket at a path or adopts an inherited listening descriptor, and listens without accepting:
    /// connections wait in the socket's backlog (256) until ``serve(router:authorize:)``. ``shutdown()`` closes a
    /// server that never served, and removes the socket file it created.
    ///
    /// - Throws: ``HTTPServerError`` naming the path or descriptor when the socket cannot be used.
    public func listen(binding: HTTPServerBinding) async throws(HTTPServerError) {
        try state.withLock { state throws(HTTPServerError) in
            guard case .idle = state else { throw .notStartable(state: state.name) }
            state = .starting
        }
        do throws(HTTPServerError) {
            let listener = try await bind(binding)
            let shutDownMeanwhile = state.withLock { state in
                guard case .starting = state else { return true }
                state = .listening(listener)
                return false
            }
            if shutDownMeanwhile {
                // shutdown() ran while we were binding: honour it.
                await Self.closeListener(listener.channel)
                listener.socketFile?.remove()
                throw .notStartable(state: "shut down while starting")
            }
            // After the state names the listener: either this sees the flag or the removal sees the listener.
            if socketFileUnwanted.load(ordering: .sequentiallyConsistent) { listener.socketFile?.remove() }
            logger.info("listening", metadata: ["binding": "\(binding)"])
        } catch {
            state.withLock { state in
                if case .starting = state { state = .idle }
            }
            throw error
        }
    }

    /// Starts accepting the connections of the socket ``listen(binding:)`` bound, those already waiting first,
    /// answering every request with `router` (after `authorize`).
    ///
    /// - Throws: ``HTTPServerError/notStartable(state:)`` when the server is not listening or already serves.
    public func serve(router: HTTPRouter, authorize: Authorizer? = nil) async throws(HTTPServerError) {
        try state.withLock { state throws(HTTPServerError) in
            guard case .listening = state else { throw .notStartable(state: state.name) }
        }
        responder.set(
            HTTPResponder(router: router, authorize: authorize, maximumBodySize: configuration.maximumBodySize))
        try await accept()
    }

    /// Turns on accepting (`autoRead`, off since the bind) once the server is listening with its routes.
    private func accept() async throws(HTTPServerError) {
        let listener = try state.withLock { state throws(HTTPServerError) -> Listener in
            guard case .listening(let listener) = state else { throw .notStartable(state: state.name) }
            state = .running(listener)
            return listener
        }
        do {
            try await listener.channel.setOption(ChannelOptions.autoRead, value: true).get()
        } catch {
            // The listener closed meanwhile: shutdown() ran, and says so itself.
            throw .notStartable(state: "shut down while starting")
        }
    }

    /// Stops accepting, then closes the listener. A connection the kernel hands over while the listener is closing
    /// could be dropped unread (its client sees a reset); with reads off, the rest stay in the backlog for the next
    /// process (socket activation) or are refused when the socket goes away.
    private static func closeListener(_ listener: any Channel) async {
        try? await listener.setOption(ChannelOptions.autoRead, value: false).get()
        try? await listener.eventLoop.submit {}.get()
        try? await listener.close()
    }

    /// Binds (or adopts) the listening socket with accepting off.
    private func bind(_ binding: HTTPServerBinding) async throws(HTTPServerError) -> Listener {
        let quiescing = ServerQuiescingHelper(group: group)
        let bootstrap = makeBootstrap(quiescing: quiescing, hasPeerCredentials: binding.hasPeerCredentials)
        switch binding {
        case .path(let path):
            var socketFile = try UnixSocketFile(path: path)
            try socketFile.clearStale()
            let listener: any Channel
            do {
                listener = try await bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: false).get()
            } catch {
                throw .listenFailed(binding: binding, reason: "\(error)")
            }
            do {
                try socketFile.adopt(mode: configuration.socketFileMode)
            } catch {
                await Self.closeListener(listener)
                throw error
            }
            return Listener(channel: listener, socketFile: socketFile, quiescing: quiescing)
        case .inheritedDescriptor(let descriptor):
            do {
                let listener = try await bootstrap.withBoundSocket(descriptor).get()
                return Listener(channel: listener, socketFile: nil, quiescing: quiescing)
            } catch {
                throw .listenFailed(binding: binding, reason: "\(error)")
            }
        case .tcp(let host, let port):
            do {
                let listener = try await bootstrap.serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                    .bind(host: host, port: port).get()
                return Listener(channel: listener, socketFile: nil, quiescing: quiescing)
            } catch {
                throw .listenFailed(binding: binding, reason: "\(error)")
            }
        }
    }

    /// The listener starts with `autoRead` off (``accept()`` turns it on) and its pipeline gets `quiescing`'s
    /// handler, which tracks every connection from its accept on; each connection's pipeline starts with a
    /// ``ShutdownQuiescingHandler``. A connection on a TCP listener (`hasPeerCredentials` false) is handled as
    /// ``PeerCredentials/unknown``.
    private func makeBootstrap(quiescing: ServerQuiescingHelper, hasPeerCredentials: Bool) -> ServerBootstrap {
        let responderSlot = self.responder
        let connections = self.connections
        let configuration = self.configuration
        return ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.autoRead, value: false)
            .serverChannelInitializer { listener in
                listener.eventLoop.makeCompletedFuture {
                    try listener.pipeline.syncOperations.addHandler(
                        quiescing.makeServerChannelHandler(channel: listener))
                }
            }
            .childChannelInitializer { channel in
                // Accepting starts only once there is a responder (`accept()`).
                guard let responder = responderSlot.current else {
                    return channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
                }
                // Every step below completes on the connection's event loop before the initializer returns:
                // shutdown counts on that (see `quiesce`).
                do {
                    let pipeline = channel.pipeline.syncOperations
                    // First in every pipeline, a refused connection's too: a shutdown waits for them all.
                    try pipeline.addHandler(
                        ShutdownQuiescingHandler(gracePeriod: TimeAmount(configuration.shutdownGracePeriod)))
                    if connections.current >= configuration.maximumConnections {
                        try pipeline.addHandler(ConnectionLimitRefusal(limit: configuration.maximumConnections))
                        return channel.eventLoop.makeSucceededVoidFuture()
                    }
                    if let timeout = configuration.requestTimeout {
                        try pipeline.addHandler(RequestDeadlineHandler(timeout: TimeAmount(timeout)))
                    }
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
                connections.add(channel)
                let credentials =
                    hasPeerCredentials
                    ? PeerCredentials.read(from: channel) : channel.eventLoop.makeSucceededFuture(.unknown)
                return credentials.flatMapThrowing { peer in
                    let pipeline = channel.pipeline.syncOperations
                    if let idle = configuration.idleTimeout {
                        try pipeline.addHandler(IdleStateHandler(readTimeout: TimeAmount(idle)))
                    }
                    try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: true, withErrorHandling: false)
                    try pipeline.addHandler(
                        HTTPConnectionHandler(
                            responder: responder, peer: peer, maximumBodySize: configuration.maximumBodySize))
                }
            }
    }

    /// The address a TCP listener is bound to (its port is the one the kernel chose when it was asked for port 0);
    /// `nil` before ``start(binding:)``, after ``shutdown()`` and for a Unix socket.
    public var tcpAddress: (host: String, port: Int)? {
        guard let address = state.withLock({ $0.listener })?.channel.localAddress, let port = address.port,
            address.protocol == .inet || address.protocol == .inet6, let host = address.ipAddress
        else { return nil }
        return (host, port)
    }

    /// Removes the socket file this server created, if it is still the one bound, and nothing else: for a process
    /// about to exit that has no time for ``shutdown()`` (the kernel closes the socket, refusing what waits in its
    /// backlog). A bind still under way removes its file as soon as it completes; a later ``shutdown()`` finds the
    /// file gone.
    public func removeSocketFileBeforeExit() {
        socketFileUnwanted.store(true, ordering: .sequentiallyConsistent)
        state.withLock { $0.listener }?.socketFile?.remove()
    }

    /// Stops accepting, lets in-flight requests finish (up to the grace period), closes every connection and
    /// removes the socket file this server created. Idle keep-alive connections close at once; one that has not sent
    /// its first request yet gets two seconds for it. Streamed responses (``HTTPBodyStream``) do not get the grace
    /// period: their producers are cancelled at once and their connections closed within about a second. Safe to
    /// call more than once.
    public func shutdown() async {
        let previous = state.withLock { state in
            defer { state = .stopped }
            return state
        }
        guard let listener = previous.listener else { return }
        let open = connections.current
        let closed = Self.quiesce(
            listener.channel, quiescing: listener.quiescing, group: group,
            gracePeriod: configuration.shutdownGracePeriod, logger: logger)
        // Should the chain fail before the helper closed the listener, it is closed here, so this cannot hang.
        closed.whenFailure { _ in listener.channel.close(promise: nil) }
        try? await listener.channel.closeFuture.get()
        // NIO leaves the file it bound: removed as soon as nothing listens on it, unless it has since been replaced
        // by someone else's; the connections are still finishing.
        listener.socketFile?.remove()
        try? await closed.get()
        logger.info("stopped", metadata: ["handled": "\(open)"])
    }

    /// Stops accepting, waits until every connection already accepted has been handed to the listener's pipeline,
    /// then lets `quiescing` close the listener and tell each connection to quiesce (``ShutdownQuiescingHandler``
    /// carries that out). Completes once every connection has closed.
    ///
    /// The hand-over matters: NIO sets a connection up on its own event loop, then hands it over on the listener's,
    /// and closes it, request unread (its client sees a reset), when the listener closed meanwhile. The set-up
    /// completes within one task on the connection's loop (`makeBootstrap`), so a round trip to every loop, then
    /// one to the listener's, see every hand-over done. One chain of event-loop futures: nothing waits for the
    /// cooperative pool, so a stream ends promptly even on a loaded machine.
    private static func quiesce(
        _ listener: any Channel, quiescing: ServerQuiescingHelper, group: any EventLoopGroup, gracePeriod: Duration,
        logger: Logger
    ) -> EventLoopFuture<Void> {
        let loop = listener.eventLoop
        let loops = Array(group.makeIterator())
        return listener.setOption(ChannelOptions.autoRead, value: false).recover { _ in }
            .flatMap { EventLoopFuture.andAllComplete(loops.map { $0.submit {} }, on: loop) }
            .flatMap { loop.submit {} }
            .flatMap {
                let closed = loop.makePromise(of: Void.self)
                quiescing.initiateShutdown(promise: closed)
                // The connections close themselves at the end of the grace period; this only says so.
                let late = loop.scheduleTask(in: TimeAmount(gracePeriod)) {
                    logger.warning("closing connections whose requests outlived the shutdown grace period")
                }
                closed.futureResult.whenComplete { _ in late.cancel() }
                return closed.futureResult
            }
    }
}

/// What answers a server's requests, shared with its listener's child initializer, which reads it once per
/// connection: set before accepting starts.
private final class ResponderSlot: Sendable {
    private let responder: Mutex<HTTPResponder?>

    init(_ responder: HTTPResponder?) {
        self.responder = Mutex(responder)
    }

    var current: HTTPResponder? { responder.withLock { $0 } }

    func set(_ responder: HTTPResponder) {
        self.responder.withLock { $0 = responder }
    }
}
