import NIOCore
import NIOHTTP1

/// One per connection, after NIO's HTTP/1.1 codec and pipelining helper: collects a request within the body
/// limit, runs the responder on Swift concurrency, and writes the answer back on the event loop.
final class HTTPConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    enum State {
        /// Between requests.
        case idle
        /// Head received, collecting the body.
        case receiving(HTTPRequestHead, [UInt8])
        /// The responder is working on a request.
        case responding
        /// A refusal was sent and the connection will close; further input is ignored.
        case closing
        /// A streamed body is being written by its producer; the connection closes when it ends.
        case streaming(StreamedBody)
    }

    private let responder: HTTPResponder
    private let peer: PeerCredentials
    private let maximumBodySize: Int
    var state = State.idle

    init(responder: HTTPResponder, peer: PeerCredentials, maximumBodySize: Int) {
        self.responder = responder
        self.peer = peer
        self.maximumBodySize = maximumBodySize
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (unwrapInboundIn(data), state) {
        case (.head(let head), .idle):
            received(head: head, context: context)
        case (.body(var buffer), .receiving(let head, var body)):
            guard body.count + buffer.readableBytes <= maximumBodySize else {
                refuse(HTTPResponder.bodyTooLarge(limit: maximumBodySize), version: head.version, context: context)
                return
            }
            state = .responding  // drop the array's second reference before appending
            body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
            state = .receiving(head, body)
        case (.end, .receiving(let head, let body)):
            state = .responding
            context.triggerUserOutboundEvent(HTTPRequestReceivedEvent(), promise: nil)
            dispatch(head: head, body: body, context: context)
        case (_, .closing):
            break
        default:
            // The pipelining helper delivers one request at a time; anything else is a broken stream.
            context.close(promise: nil)
        }
    }

    private func received(head: HTTPRequestHead, context: ChannelHandlerContext) {
        let lengths = head.headers["Content-Length"]
        if let declared = lengths.first.flatMap({ Int($0) }), declared > maximumBodySize {
            refuse(HTTPResponder.bodyTooLarge(limit: maximumBodySize), version: head.version, context: context)
            return
        }
        if head.headers.first(name: "Expect")?.lowercased() == "100-continue" {
            context.writeAndFlush(
                wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
        }
        state = .receiving(head, [])
    }

    private func dispatch(head: HTTPRequestHead, body: [UInt8], context: ChannelHandlerContext) {
        let responder = self.responder
        let peer = self.peer
        let promise = context.eventLoop.makePromise(of: HTTPResponse.self)
        promise.completeWithTask {
            await responder.respond(head: head, body: body, peer: peer)
        }
        promise.futureResult.assumeIsolated().whenSuccess { response in
            guard case .responding = self.state else { return }
            if let stream = response.bodyStream {
                self.startStreaming(
                    stream, response: response, version: head.version, omitBody: head.method == .HEAD,
                    context: context)
                return
            }
            self.state = .idle
            self.write(
                response, version: head.version, keepAlive: head.isKeepAlive, omitBody: head.method == .HEAD,
                context: context)
        }
    }

    /// Sends a library refusal, then closes without reading the rest of the request.
    /// How long a refused connection stays open, reading and discarding, after its answer was written.
    static let lingering: TimeAmount = .seconds(2)

    /// Answers a request that will not be read (a body over the limit, bytes that are not HTTP), then closes the
    /// way nginx's lingering close does: the answer is written, the output half is shut down (the client reads
    /// the answer and then end of file), and whatever the client still sends is read and discarded until it
    /// closes or ``lingering`` passes. Closing at once with unread bytes would reset the connection, and a
    /// client that sends its whole body before reading (Python's `http.client`) would get EPIPE or ECONNRESET
    /// instead of the 413.
    private func refuse(_ response: HTTPResponse, version: HTTPVersion, context: ChannelHandlerContext) {
        state = .closing
        write(response, version: version, keepAlive: false, lingerAfterwards: true, context: context)
    }

    /// Writes a whole response; for HEAD the body is left out but its length announced.
    private func write(
        _ response: HTTPResponse, version: HTTPVersion, keepAlive: Bool, omitBody: Bool = false,
        lingerAfterwards: Bool = false, context: ChannelHandlerContext
    ) {
        var head = HTTPResponseHead(version: version, status: response.status, headers: response.headers)
        head.headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
        if !keepAlive {
            head.headers.replaceOrAdd(name: "Connection", value: "close")
        } else if version.minor == 0 {
            head.headers.replaceOrAdd(name: "Connection", value: "keep-alive")
        }
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !response.body.isEmpty && !omitBody {
            let buffer = context.channel.allocator.buffer(bytes: response.body)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            // A write that never completes (a peer that stopped reading, or a response the pipelining helper
            // holds back after a parse error) must not keep the connection open: close it after a grace second.
            // The timer is cancelled once the write is done, so it does not hold the channel for that second.
            let fallback = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(1)) {
                context.close(promise: nil)
            }
            written.assumeIsolated().whenComplete { result in
                fallback.cancel()
                guard lingerAfterwards, case .success = result else {
                    context.close(promise: nil)
                    return
                }
                Self.closeLingering(context: context)
            }
        }
    }

    /// Shuts the output half down and closes the connection after ``lingering`` (or when the client closes first);
    /// what it still sends meanwhile is read and dropped by the handler that called this.
    static func closeLingering(context: ChannelHandlerContext) {
        context.close(mode: .output, promise: nil)
        context.eventLoop.assumeIsolated().scheduleTask(in: lingering) { context.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A closed connection gets no answer: the decoder reports a request cut off by the close as a parse error
        // while the channel goes inactive, and a 400 written then reached SwiftNIO's pipeline handler after it had
        // quiesced for a shutdown, which stops the process (`Wrote in quiescing completed state`).
        guard context.channel.isActive else {
            context.close(promise: nil)
            return
        }
        switch state {
        case .idle, .receiving:
            if error is HTTPParserError {
                refuse(HTTPResponder.malformed(error), version: .http1_1, context: context)
            } else {
                context.close(promise: nil)
            }
        case .responding, .closing, .streaming:
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            // Only a silent connection between requests is closed; a running handler finishes first.
            if case .idle = state { context.close(promise: nil) }
            return
        }
        if event is HTTPServerShutdownEvent {
            if case .streaming(let body) = state { endStreamForShutdown(body, context: context) }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if case .streaming(let body) = state {
            state = .closing
            body.stop()
        }
        context.fireChannelInactive()
    }
}
