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

    /// Tracks a channel until it closes; `firstBytes` tells shutdown whether a request may still be on its way.
    func add(_ channel: any Channel, firstBytes: EventLoopFuture<Void>) {
        let key = ObjectIdentifier(channel)
        channels.withLock { $0[key] = Entry(channel: channel, firstBytes: firstBytes) }
        channel.closeFuture.whenComplete { _ in
            _ = self.channels.withLock { $0.removeValue(forKey: key) }
        }
    }

    /// The connections open now.
    var open: [Entry] {
        channels.withLock { Array($0.values) }
    }
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
