import NIOCore
import NIOHTTP1

/// Sent down a connection's pipeline by ``ShutdownQuiescingHandler`` when the shutdown reaches it, ahead of NIO's
/// quiesce event (which NIO's pipelining handler consumes): a streamed body must end now, not when its producer is
/// done.
struct HTTPServerShutdownEvent: Sendable {}

/// A streamed body in progress on one connection: its producer task and the writes not yet on the socket.
/// Touched on the connection's event loop only.
final class StreamedBody {
    let producer: Task<Void, Never>
    /// Writes handed to the channel whose bytes have not reached the socket yet (the client is not reading).
    var writesInFlight = 0
    /// Closes the connection if the body has not ended in time after a shutdown began.
    var deadline: Scheduled<Void>?

    init(producer: Task<Void, Never>) {
        self.producer = producer
    }

    /// Cancels the producer and the deadline.
    func stop() {
        producer.cancel()
        deadline?.cancel()
    }
}

extension HTTPConnectionHandler {
    /// How long a stream may take to end once the server's shutdown began before its connection is closed anyway.
    static let streamEndGrace: TimeAmount = .seconds(1)

    /// Writes the head of a streamed response, then runs its producer in a task of its own. The connection closes
    /// after the body: HTTP/1.1 bodies are chunked (NIO's encoder frames a body without `Content-Length`), HTTP/1.0
    /// ones end with the connection.
    func startStreaming(
        _ stream: HTTPBodyStream, response: HTTPResponse, version: HTTPVersion, omitBody: Bool,
        context: ChannelHandlerContext
    ) {
        var head = HTTPResponseHead(version: version, status: response.status, headers: response.headers)
        head.headers.remove(name: "Content-Length")
        head.headers.replaceOrAdd(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        guard !omitBody, context.channel.isActive else {
            state = .closing
            endStream(completed: true, context: context)
            return
        }
        context.flush()
        let eventLoop = context.eventLoop
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: eventLoop)
        let writer = HTTPBodyWriter { bytes throws(HTTPBodyWriterError) in
            do {
                try await eventLoop.flatSubmit { bound.value.handler.writeChunk(bytes, context: bound.value.context) }
                    .get()
            } catch {
                throw .connectionClosed
            }
        }
        let producer = Task {
            let completed: Bool
            do {
                try await stream.run(into: writer)
                completed = true
            } catch {
                completed = false
            }
            eventLoop.execute {
                bound.value.handler.producerReturned(completed: completed, context: bound.value.context)
            }
        }
        state = .streaming(StreamedBody(producer: producer))
    }

    /// Writes one chunk of the body and flushes it; the future completes once the bytes are on the socket.
    private func writeChunk(_ bytes: [UInt8], context: ChannelHandlerContext) -> EventLoopFuture<Void> {
        guard case .streaming(let body) = state, context.channel.isActive else {
            return context.eventLoop.makeFailedFuture(HTTPBodyWriterError.connectionClosed)
        }
        body.writesInFlight += 1
        let buffer = context.channel.allocator.buffer(bytes: bytes)
        let written = context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))))
        written.assumeIsolated().whenComplete { _ in body.writesInFlight -= 1 }
        return written
    }

    /// The producer returned (`completed`) or threw: end the body, or abort it.
    private func producerReturned(completed: Bool, context: ChannelHandlerContext) {
        guard case .streaming(let body) = state else { return }
        state = .closing
        body.deadline?.cancel()
        endStream(completed: completed, context: context)
    }

    /// Sends the end of the body (the terminating chunk) when `completed`, then closes; closes at once otherwise.
    /// A client that stopped reading cannot hold the connection open: it is closed after a grace second.
    private func endStream(completed: Bool, context: ChannelHandlerContext) {
        guard completed else {
            context.close(promise: nil)
            return
        }
        let fallback = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(1)) {
            context.close(promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            fallback.cancel()
            context.close(promise: nil)
        }
    }

    /// The server is shutting down: the producer is cancelled and gets ``streamEndGrace`` to return; a body
    /// whose client is not reading (a write is stuck) is cut off at once.
    func endStreamForShutdown(_ body: StreamedBody, context: ChannelHandlerContext) {
        body.producer.cancel()
        guard body.writesInFlight == 0 else {
            context.close(promise: nil)
            return
        }
        guard body.deadline == nil else { return }
        body.deadline = context.eventLoop.assumeIsolated().scheduleTask(in: Self.streamEndGrace) {
            context.close(promise: nil)
        }
    }
}
