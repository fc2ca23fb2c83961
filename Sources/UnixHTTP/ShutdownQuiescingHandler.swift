import NIOCore

/// First in every accepted connection's pipeline: carries out the `ChannelShouldQuiesceEvent` that swift-nio-extras'
/// `ServerQuiescingHelper` sends each open connection when ``HTTPServer/shutdown()`` begins.
///
/// - A streamed body ends at once: ``HTTPServerShutdownEvent`` goes ahead of the quiesce event, which NIO's
///   pipelining handler consumes (it would wait for the body's end).
/// - NIO's pipelining handler then lets the request in progress finish and closes after its response
///   (`Connection: close`), or closes an idle connection at once.
/// - A connection that has not sent a byte yet gets ``firstRequestWait`` for its request before the quiesce event
///   goes on: it may have been accepted just before the listener closed, its request still on the way, and closing
///   it unread would reset it (under socket activation, a `systemctl restart` would cut such a client off).
/// - Whatever is still open when the shutdown grace period ends is closed.
final class ShutdownQuiescingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// How long a connection that has sent nothing yet is given for its first request once the shutdown began.
    static let firstRequestWait: TimeAmount = .seconds(2)

    private let gracePeriod: TimeAmount
    private var receivedBytes = false
    /// Passes the quiesce event on after ``firstRequestWait`` when no byte came meanwhile.
    private var heldQuiesce: Scheduled<Void>?
    /// Closes the connection when the grace period ends.
    private var graceDeadline: Scheduled<Void>?

    /// A handler that closes the connection `gracePeriod` after the shutdown reached it.
    init(gracePeriod: TimeAmount) {
        self.gracePeriod = gracePeriod
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // The HTTP decoder sees the request first, so a quiesce event passed on below waits for its response.
        context.fireChannelRead(data)
        receivedBytes = true
        if let held = heldQuiesce {
            held.cancel()
            heldQuiesce = nil
            context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        guard graceDeadline == nil else { return }
        let loop = context.eventLoop.assumeIsolated()
        graceDeadline = loop.scheduleTask(in: gracePeriod) { context.channel.close(promise: nil) }
        context.fireUserInboundEventTriggered(HTTPServerShutdownEvent())
        if receivedBytes {
            context.fireUserInboundEventTriggered(event)
        } else {
            heldQuiesce = loop.scheduleTask(in: Self.firstRequestWait) { [self] in
                heldQuiesce = nil
                context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimers()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimers()
    }

    private func cancelTimers() {
        heldQuiesce?.cancel()
        heldQuiesce = nil
        graceDeadline?.cancel()
        graceDeadline = nil
    }
}
