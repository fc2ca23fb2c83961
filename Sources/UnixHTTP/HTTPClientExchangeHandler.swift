import NIOCore
import NIOHTTP1

/// Sends one request when the connection becomes active and completes a promise with the whole response;
/// closes the connection afterwards.
final class HTTPClientExchangeHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = Never
    typealias OutboundOut = HTTPClientRequestPart

    private let head: HTTPRequestHead
    private let body: [UInt8]
    private let timeout: TimeAmount
    private let promise: EventLoopPromise<HTTPClientResponse>
    private var response: (head: HTTPResponseHead, body: [UInt8])?
    private var completed = false
    private var timer: Scheduled<Void>?

    init(head: HTTPRequestHead, body: [UInt8], timeout: TimeAmount, promise: EventLoopPromise<HTTPClientResponse>) {
        self.head = head
        self.body = body
        self.timeout = timeout
        self.promise = promise
    }

    func handlerAdded(context: ChannelHandlerContext) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
            self.finish(.failure(ClientTimeout()), context: context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
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
        switch unwrapInboundIn(data) {
        case .head(let head) where head.status.code >= 100 && head.status.code < 200:
            break  // informational (100 Continue): the real response follows
        case .head(let head):
            response = (head, [])
        case .body(var buffer):
            response?.body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
        case .end:
            guard let response else {
                finish(.failure(MalformedResponse(reason: "the response ended without a head")), context: context)
                return
            }
            let result = HTTPClientResponse(
                status: response.head.status, headers: response.head.headers, body: response.body)
            finish(.success(result), context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(
            .failure(MalformedResponse(reason: "the server closed the connection before the response ended")),
            context: context)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if connectionLost(error, context: context) { return }
        finish(.failure(MalformedResponse(reason: "\(error)")), context: context)
    }

    /// Ends the exchange with ``ConnectionLost`` when `error` is a reset before any response head; returns
    /// whether it did.
    @discardableResult
    private func connectionLost(_ error: any Error, context: ChannelHandlerContext) -> Bool {
        guard response == nil, let lost = ConnectionLost(error) else { return false }
        finish(.failure(lost), context: context)
        return true
    }

    private func finish(_ result: Result<HTTPClientResponse, any Error>, context: ChannelHandlerContext) {
        guard !completed else { return }
        completed = true
        timer?.cancel()
        promise.completeWith(result)
        context.close(promise: nil)
    }
}

/// The exchange took longer than the client's timeout.
struct ClientTimeout: Error {}

/// The server's bytes were not a complete HTTP/1.1 response.
struct MalformedResponse: Error {
    let reason: String
}
