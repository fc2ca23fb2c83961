import NIOCore

/// Told by ``HTTPConnectionHandler`` (an outbound user event) that a request has been received whole.
struct HTTPRequestReceivedEvent: Sendable {}

/// Gives each request a deadline from its first byte until it is received whole (head and body), so a client that
/// trickles a request (a byte a second, which the idle timeout never sees as silence) cannot hold a connection:
/// past the deadline it gets `408 request_timeout` and the connection closes. First in the pipeline, on raw bytes.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    private var expired = false

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if expired { return }
        if deadline == nil {
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
                expire(context: context)
            }
        }
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is HTTPRequestReceivedEvent else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        deadline?.cancel()
        deadline = nil
        promise?.succeed(())
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    private func expire(context: ChannelHandlerContext) {
        deadline = nil
        expired = true
        let seconds = Double(timeout.nanoseconds) / 1e9
        RawRefusal.send(
            RawRefusal.bytes(
                status: 408, reason: "Request Timeout", code: "request_timeout",
                message: "the request was not received whole within \(seconds) s of its first byte"),
            context: context)
    }
}
