import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// An HTTP/1.1 server on a Unix domain socket: routes requests to async handlers, refuses oversized and malformed
/// requests with JSON errors, reports each peer's credentials and shuts down gracefully.
public final class HTTPServer: Sendable {
    /// Runs before routing for every request (whose `pathParameters` are still empty): `nil` lets the request
    /// through, a response is sent instead of routing.
    public typealias Authorizer = @Sendable (HTTPRequest) async -> HTTPResponse?

    private enum State: Sendable {
        case idle
        case starting
        case running(listener: any Channel, socketFile: UnixSocketFile?)
        case stopped
    }

    /// The limits and default socket path.
    public let configuration: HTTPServerConfiguration
    private let responder: HTTPResponder
    private let group: any EventLoopGroup
    private let logger: Logger
    private let state = Mutex<State>(.idle)
    private let connections = ConnectionRegistry()

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
        self.responder = HTTPResponder(
            router: router, authorize: authorize, maximumBodySize: configuration.maximumBodySize)
        self.group = eventLoopGroup
        self.logger = logger
    }

    /// Binds ``HTTPServerConfiguration/socketPath`` and starts accepting connections.
    public func start() async throws(HTTPServerError) {
        try await start(binding: .path(configuration.socketPath))
    }

    /// Starts accepting connections on a new socket at a path or on an inherited listening descriptor.
    ///
    /// - Throws: ``HTTPServerError`` naming the path or descriptor when the socket cannot be used.
    public func start(binding: HTTPServerBinding) async throws(HTTPServerError) {
        try state.withLock { state throws(HTTPServerError) in
            guard case .idle = state else { throw .notStartable(state: "\(state)") }
            state = .starting
        }
        do throws(HTTPServerError) {
            let (listener, socketFile) = try await listen(binding)
            let shutDownMeanwhile = state.withLock { state in
                guard case .starting = state else { return true }
                state = .running(listener: listener, socketFile: socketFile)
                return false
            }
            if shutDownMeanwhile {
                // shutdown() ran while we were binding: honour it.
                await Self.closeListener(listener)
                socketFile?.remove()
                throw .notStartable(state: "shut down while starting")
            }
            logger.info("listening", metadata: ["binding": "\(binding)"])
        } catch {
            state.withLock { state in
                if case .starting = state { state = .idle }
            }
            throw error
        }
    }

    private typealias Listener = (channel: any Channel, socketFile: UnixSocketFile?)

    /// Stops accepting, then closes the listener. A connection the kernel hands over while the listener is closing
    /// could be dropped unread (its client sees a reset); with reads off, the rest stay in the backlog for the next
    /// process (socket activation) or are refused when the socket goes away.
    private static func closeListener(_ listener: any Channel) async {
        try? await listener.setOption(ChannelOptions.autoRead, value: false).get()
        try? await listener.eventLoop.submit {}.get()
        try? await listener.close()
    }

    private func listen(_ binding: HTTPServerBinding) async throws(HTTPServerError) -> Listener {
        let bootstrap = makeBootstrap()
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
            return (listener, socketFile)
        case .inheritedDescriptor(let descriptor):
            do {
                return (try await bootstrap.withBoundSocket(descriptor).get(), nil)
            } catch {
                throw .listenFailed(binding: binding, reason: "\(error)")
            }
        }
    }

    /// Stops accepting, then waits until every connection already accepted has finished its set-up and been handed
    /// to the listener's pipeline: NIO closes one whose set-up completes after the listener closed, under its
    /// unread request. Bounded (about a second), for a set-up that never completes.
    private func stopAccepting(_ listener: any Channel) async {
        try? await listener.setOption(ChannelOptions.autoRead, value: false).get()
        // Accepts of the last read are done; their set-up tasks are queued on the connections' loops.
        try? await listener.eventLoop.submit {}.get()
        var quietRounds = 0
        var last = connections.setupCount
        for _ in 0..<200 where quietRounds < 3 {
            await drainEventLoops()
            let now = connections.setupCount
            if now.begun == now.finished && now == last {
                quietRounds += 1
            } else {
                quietRounds = 0
                if now.begun != now.finished { try? await Task.sleep(for: .milliseconds(5)) }
            }
            last = now
        }
        // A finished set-up hops to the listener's loop to be handed over: this runs after those hops.
        try? await listener.eventLoop.submit {}.get()
    }

    /// Runs an empty task on every event loop: whatever was queued on them before has run.
    private func drainEventLoops() async {
        for loop in group.makeIterator() {
            try? await loop.submit {}.get()
        }
    }

    private func makeBootstrap() -> ServerBootstrap {
        let responder = self.responder
        let connections = self.connections
        let configuration = self.configuration
        return ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .childChannelInitializer { channel in
                if connections.count >= configuration.maximumConnections {
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            ConnectionLimitRefusal(limit: configuration.maximumConnections))
                    }
                }
                let firstBytes = channel.eventLoop.makePromise(of: Void.self)
                do {
                    try channel.pipeline.syncOperations.addHandler(FirstBytesHandler(promise: firstBytes))
                    if let timeout = configuration.requestTimeout {
                        try channel.pipeline.syncOperations.addHandler(
                            RequestDeadlineHandler(timeout: TimeAmount(timeout)))
                    }
                } catch {
                    firstBytes.succeed(())
                    return channel.eventLoop.makeFailedFuture(error)
                }
                connections.add(channel, firstBytes: firstBytes.futureResult)
                return connections.settingUp(
                    PeerCredentials.read(from: channel).flatMapThrowing { peer in
                        let pipeline = channel.pipeline.syncOperations
                        if let idle = configuration.idleTimeout {
                            try pipeline.addHandler(IdleStateHandler(readTimeout: TimeAmount(idle)))
                        }
                        try pipeline.configureHTTPServerPipeline(
                            withPipeliningAssistance: true, withErrorHandling: false)
                        try pipeline.addHandler(
                            HTTPConnectionHandler(
                                responder: responder, peer: peer, maximumBodySize: configuration.maximumBodySize))
                    })
            }
    }

    /// Stops accepting, lets in-flight requests finish (up to the grace period), closes every connection and
    /// removes the socket file this server created. Streamed responses (``HTTPBodyStream``) do not get the grace
    /// period: their producers are cancelled at once and their connections closed within about a second. Safe to
    /// call more than once.
    public func shutdown() async {
        let previous = state.withLock { state in
            defer { state = .stopped }
            return state
        }
        guard case .running(let listener, let socketFile) = previous else { return }
        // Streamed bodies end now, before anything is awaited: stopping the listener below takes a round trip to
        // every event loop per round, each resumed on the cooperative pool, which took seconds on a loaded
        // machine. Connections registered later get the event again below, with their quiesce.
        for entry in connections.open {
            entry.channel.pipeline.fireUserInboundEventTriggered(HTTPServerShutdownEvent())
        }
        await stopAccepting(listener)
        await Self.closeListener(listener)
        // NIO already unlinks a socket file it bound when the listener closes; this covers the rest, and never
        // touches a file that has since been replaced by someone else's.
        socketFile?.remove()
        // Connections the listener accepted just before it closed are registered (and enter the registry) by
        // tasks queued on their event loops, which may queue further tasks: drain the loops and pick up newly
        // registered connections until a round finds none, so none is missed and cut off at exit.
        // A connection accepted just before the listener closed may not have been read yet: quiescing it now
        // would close it under its request (the client sees a reset). Quiesce each once its first bytes arrived,
        // or after a short wait for a client that connected but sends nothing.
        var open: [any Channel] = []
        var handled = Set<ObjectIdentifier>()
        var quietRounds = 0
        for _ in 0..<50 where quietRounds < 3 {
            await drainEventLoops()
            let entries = connections.open.filter { !handled.contains(ObjectIdentifier($0.channel)) }
            quietRounds = entries.isEmpty ? quietRounds + 1 : 0
            for entry in entries {
                let channel = entry.channel
                handled.insert(ObjectIdentifier(channel))
                open.append(channel)
                let once = Once()
                let quiesce: @Sendable () -> Void = {
                    once.run {
                        // Streamed bodies end now (NIO's pipelining handler consumes the quiesce event and would
                        // wait for their end); then the connection closes once its response is done.
                        channel.pipeline.fireUserInboundEventTriggered(HTTPServerShutdownEvent())
                        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
                    }
                }
                entry.firstBytes.whenComplete { _ in quiesce() }
                channel.eventLoop.scheduleTask(in: .seconds(2)) { quiesce() }
            }
        }
        let grace = configuration.shutdownGracePeriod
        let logger = self.logger
        await withTaskGroup(of: Void.self) { group in
            let channels = open
            group.addTask {
                for connection in channels { try? await connection.closeFuture.get() }
            }
            group.addTask {
                try? await Task.sleep(for: grace)
                guard !Task.isCancelled else { return }
                logger.warning("closing connections whose requests outlived the shutdown grace period")
                for connection in channels { connection.close(promise: nil) }
            }
            // Whichever ends first: all connections closed (the timer is cancelled), or the grace period ran out
            // (the rest are closed, which ends the first task too).
            await group.next()
            group.cancelAll()
        }
        logger.info("stopped", metadata: ["handled": "\(open.count)", "late": "\(connections.open.count)"])
    }
}
