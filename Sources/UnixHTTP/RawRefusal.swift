import FoundationEssentials
import NIOCore

/// An HTTP/1.1 error response written as raw bytes, by the handlers at the front of a connection's pipeline (before
/// the HTTP codec), followed by the lingering close of ``HTTPConnectionHandler``: the output half is shut down, what
/// the client still sends is read and dropped, and the connection closes when it does or after two seconds.
enum RawRefusal {
    /// The response bytes: `status` with an ``HTTPErrorBody`` of `code` and `message`, `Connection: close`.
    static func bytes(status: Int, reason: String, code: String, message: String) -> [UInt8] {
        let body = (try? JSONEncoder().encode(HTTPErrorBody(code: code, message: message))) ?? Data("{}".utf8)
        let head =
            "HTTP/1.1 \(status) \(reason)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n"
            + "Connection: close\r\n\r\n"
        return Array(head.utf8) + Array(body)
    }

    /// Writes `bytes` from `context` (toward the socket) and closes lingeringly.
    static func send(_ bytes: [UInt8], context: ChannelHandlerContext) {
        let buffer = context.channel.allocator.buffer(bytes: bytes)
        context.writeAndFlush(NIOAny(buffer)).assumeIsolated().whenComplete { result in
            guard case .success = result else {
                context.close(promise: nil)
                return
            }
            HTTPConnectionHandler.closeLingering(context: context)
        }
    }
}
