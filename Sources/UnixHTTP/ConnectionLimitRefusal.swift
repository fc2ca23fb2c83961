import NIOCore

/// The whole pipeline of a connection accepted over ``HTTPServerConfiguration/maximumConnections``: it answers
/// `503 too_many_connections` as soon as the connection is active and closes it lingeringly, without reading a
/// request.
final class ConnectionLimitRefusal: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    func channelActive(context: ChannelHandlerContext) {
        RawRefusal.send(
            RawRefusal.bytes(
                status: 503, reason: "Service Unavailable", code: "too_many_connections",
                message: "the server holds its maximum of \(limit) connections; try again later"),
            context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
