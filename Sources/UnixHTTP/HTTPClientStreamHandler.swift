import NIOCore
import NIOHTTP1

/// Sends one request when the connection becomes active, completes a promise with the response head as soon as
/// it arrives, and then feeds the body into an async sequence with back-pressure: while the consumer is behind
/// (above the high watermark) no more is read from the socket, so a slow consumer slows the server's writes
/// instead of filling memory. Closes the connection when the body ends or the consumer stops iterating.
final class HTTPClientStreamHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = Never
    typealias OutboundOut = HTTPClientRequestPart

    typealias Producer = NIOThrowingAsyncSequenceProducer<
        [UInt8], any Error, NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark, Delegate
    >

    /// Tells the handler, on its event loop, that the consumer wants more or is gone.
    struct Delegate: NIOAsyncSequenceProducerDelegate {
        let handler: NIOLoopBound<HTTPClientStreamHandler>

        func produceMore() {
            handler.eventLoop.execute { handler.value.resumeReading() }
        }

        func didTerminate() {
            handler.eventLoop.execute { handler.value.consumerGone() }
        }
    }

    private enum State {
        case awaitingHead
        case streaming
        case finished
    }

    private let head: HTTPRequestHead
    private let body: [UInt8]
    private let timeout: TimeAmount
    private let promise: EventLoopPromise<HTTPClientStreamingResponse>
    private var state = State.awaitingHead
    private var source: Producer.Source?
    private var sequence: Producer?
    private var context: ChannelHandlerContext?
    private var timer: Scheduled<Void>?
    private var readingPaused = false
    private var readPending = false

    init(
        head: HTTPRequestHead, body: [UInt8], timeout: TimeAmount,
        promise: EventLoopPromise<HTTPClientStreamingResponse>
    ) {
        self.head = head
        self.body = body
        self.timeout = timeout
        self.promise = promise
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let made = Producer.makeSequence(
            elementType: [UInt8].self,
            backPressureStrategy: .init(lowWatermark: 2, highWatermark: 16),
            finishOnDeinit: false,
            delegate: Delegate(handler: NIOLoopBound(self, eventLoop: context.eventLoop)))
        source = made.source
        sequence = made.sequence
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
            self.fail(ClientTimeout(), context: context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        self.context = nil
        // Never leave the body unfinished (NIO traps on a source released without finish()).
        source?.finish()
    }

    func channelActive(context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !body.isEmpty {
            let buffer = context.channel.allocator.buffer(bytes: body)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        // A write that fails (EPIPE: the server is gone) closes the channel without an errorCaught.
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.assumeIsolated().whenFailure { error in
            self.connectionLost(error, context: context)
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (unwrapInboundIn(data), state) {
        case (.head(let head), .awaitingHead) where head.status.code >= 100 && head.status.code < 200:
            break  // informational (100 Continue): the real response follows
        case (.head(let head), .awaitingHead):
            timer?.cancel()
            state = .streaming
            guard let sequence else { return }
            // Handed over, not kept: the consumer dropping it is how the handler learns it is gone.
            self.sequence = nil
            promise.succeed(
                HTTPClientStreamingResponse(
                    status: head.status, headers: head.headers, body: HTTPClientResponseBody(sequence)))
        case (.body(var buffer), .streaming):
            let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
            switch source?.yield(bytes) {
            case .stopProducing: readingPaused = true
            case .dropped: consumerGone()
            case .produceMore, nil: break
            }
        case (.end, .streaming):
            state = .finished
            source?.finish()
            context.close(promise: nil)
        case (.body, _), (.end, _):
            fail(MalformedResponse(reason: "the response has a body without a head"), context: context)
        case (.head, _):
            fail(MalformedResponse(reason: "a second response head arrived"), context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(MalformedResponse(reason: "the server closed the connection before the response ended"), context: context)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if connectionLost(error, context: context) { return }
        fail(MalformedResponse(reason: "\(error)"), context: context)
    }

    /// Ends the exchange with ``ConnectionLost`` when `error` is a reset before the response head; returns whether
    /// it did.
    @discardableResult
    private func connectionLost(_ error: any Error, context: ChannelHandlerContext) -> Bool {
        guard case .awaitingHead = state, let lost = ConnectionLost(error) else { return false }
        fail(lost, context: context)
        return true
    }

    func read(context: ChannelHandlerContext) {
        if readingPaused {
            readPending = true
        } else {
            context.read()
        }
    }

    /// The consumer caught up: read again if a read was held back.
    private func resumeReading() {
        readingPaused = false
        guard readPending, let context else { return }
        readPending = false
        context.read()
    }

    /// The consumer stopped iterating (or dropped the body): nothing more will be read.
    private func consumerGone() {
        if case .streaming = state { state = .finished }
        source?.finish()
        context?.close(promise: nil)
    }

    /// Ends the exchange with `error`: the head promise fails before the head, the body fails after it.
    private func fail(_ error: any Error, context: ChannelHandlerContext) {
        timer?.cancel()
        switch state {
        case .awaitingHead:
            promise.fail(error)
            source?.finish()
        case .streaming:
            source?.finish(error)
        case .finished:
            return
        }
        state = .finished
        source = nil
        sequence = nil
        context.close(promise: nil)
    }
}
