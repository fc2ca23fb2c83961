import NIOCore
import Synchronization

/// The open connections of a server, so shutdown can quiesce them and wait for them to close.
final class ConnectionRegistry: Sendable {
    /// One open connection and whether its first bytes have arrived.
    struct Entry: Sendable {
        /// The connection.
        let channel: any Channel
        /// Succeeds when the peer's first bytes are read, or when the connection closes.
        let firstBytes: EventLoopFuture<Void>
    }

    private let channels = Mutex<[ObjectIdentifier: Entry]>([:])
    private let setups = Mutex(SetupCount())

    /// Accepted connections whose set-up (the child initializer) has begun, and how many have finished.
    struct SetupCount: Sendable, Equatable {
        var begun = 0
        var finished = 0
    }

    /// Tracks a channel until it closes; `firstBytes` tells shutdown whether a request may still be on its way.
    func add(_ channel: any Channel, firstBytes: EventLoopFuture<Void>) {
        let key = ObjectIdentifier(channel)
        channels.withLock { $0[key] = Entry(channel: channel, firstBytes: firstBytes) }
        channel.closeFuture.whenComplete { _ in
            _ = self.channels.withLock { $0.removeValue(forKey: key) }
        }
    }

    /// How many connections are open now.
    var count: Int { channels.withLock { $0.count } }

    /// The connections open now.
    var open: [Entry] {
        channels.withLock { Array($0.values) }
    }

    /// Counts a connection's set-up from the start of its child initializer until `done` completes.
    ///
    /// NIO hands a connection to the listener's pipeline only after its set-up, on the listener's loop, and closes
    /// it (request unread: the client sees a reset) when the listener closed meanwhile; shutdown waits for these.
    func settingUp<Value>(_ done: EventLoopFuture<Value>) -> EventLoopFuture<Value> {
        setups.withLock { $0.begun += 1 }
        done.whenComplete { _ in self.setups.withLock { $0.finished += 1 } }
        return done
    }

    /// Set-ups begun and finished so far.
    var setupCount: SetupCount { setups.withLock { $0 } }
}

/// Completes a promise once a connection's first bytes went down the pipeline (or when it closes), so a shutdown
/// does not close a just-accepted connection whose request is still in the socket buffer.
final class FirstBytesHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let promise: EventLoopPromise<Void>
    private var completed = false

    /// A handler completing `promise`.
    init(promise: EventLoopPromise<Void>) {
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // First let the HTTP decoder see the request, so a quiesce that follows waits for its response.
        context.fireChannelRead(data)
        complete()
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        complete()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        complete()
    }

    private func complete() {
        guard !completed else { return }
        completed = true
        promise.succeed(())
    }
}

/// Runs an action at most once, from whichever of several callbacks comes first.
final class Once: Sendable {
    private let done = Mutex(false)

    /// Runs `action` unless an earlier call already did.
    func run(_ action: () -> Void) {
        let first = done.withLock { done in
            defer { done = true }
            return !done
        }
        if first { action() }
    }
}
