import AsyncHTTPClient
import FoundationEssentials
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Collects an answer's body into one `Data` of the size its `Content-Length` announces, each part copied once.
///
/// AsyncHTTPClient's own collector appends every part to a `ByteBuffer` that doubles as it grows (a 16 MiB
/// journal piece is copied into buffers of 64 KiB, 128 KiB, … 16 MiB, each freshly faulted in), and the answer's
/// bytes were then copied once more into a `Data`. A restore reads the whole replica, so every byte it reads was
/// copied three times. Without a `Content-Length` (a chunked answer), or with one above ``largestReserved``, the
/// parts are appended to the `Data` instead.
final class S3ResponseCollector: HTTPClientResponseDelegate {
    /// The largest body made at its announced size before any of it arrived: a length a store announces is not
    /// trusted with more memory than this (a state file or a piece of a journal segment is far smaller).
    static let largestReserved = 1 << 30

    /// A store's answer that ended without its head.
    struct MissingHead: Error, CustomStringConvertible {
        var description: String { "the store's answer ended without a status line" }
    }

    /// The whole answer.
    struct Answer: Sendable {
        /// The status code.
        var status: Int
        /// The headers.
        var headers: HTTPHeaders
        /// The body.
        var body: Data
    }

    private struct Collected {
        var head: HTTPResponseHead?
        var body = Data()
        /// Bytes of `body` written so far, when it was made at its announced size.
        var written: Int?
    }

    // The callbacks arrive on one event loop, one after another; the lock makes that visible to the compiler.
    private let collected = NIOLockedValueBox(Collected())
    private let announcesBody: Bool

    /// A collector for the answer to a request with `method`: the answer to a `HEAD` announces a length it does
    /// not send, so none is reserved for it.
    init(method: String) {
        announcesBody = method != "HEAD"
    }

    /// Takes the answer's head; reserves its body when the head announces its length.
    func didReceiveHead(task: HTTPClient.Task<Answer>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        collected.withLockedValue { collected in
            collected.head = head
            if announcesBody, let text = head.headers.first(name: "Content-Length"), let length = Int(text),
                length > 0, length <= Self.largestReserved
            {
                collected.body = Data(count: length)
                collected.written = 0
            }
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    /// Copies a part of the body where it belongs.
    func didReceiveBodyPart(task: HTTPClient.Task<Answer>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        collected.withLockedValue { collected in
            if let written = collected.written, written + buffer.readableBytes <= collected.body.count {
                collected.body.withUnsafeMutableBytes { body in
                    buffer.withUnsafeReadableBytes { part in
                        UnsafeMutableRawBufferPointer(rebasing: body[written..<written + part.count])
                            .copyMemory(from: part)
                    }
                }
                collected.written = written + buffer.readableBytes
            } else {
                // More than announced: what came so far, then the rest appended.
                if let written = collected.written { collected.body.count = written }
                collected.written = nil
                buffer.withUnsafeReadableBytes { collected.body.append(contentsOf: $0) }
            }
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    /// The answer: its status, headers and the body received (shorter than announced only if the connection
    /// ended early, which AsyncHTTPClient reports as an error before this).
    ///
    /// - Throws: ``MissingHead`` when no head came.
    func didFinishRequest(task: HTTPClient.Task<Answer>) throws -> Answer {
        try collected.withLockedValue { collected in
            if let written = collected.written { collected.body.count = written }
            guard let head = collected.head else { throw MissingHead() }
            return Answer(status: Int(head.status.code), headers: head.headers, body: collected.body)
        }
    }
}
