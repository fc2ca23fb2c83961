import NIOCore

/// The body of an ``HTTPClientStreamingResponse``, chunk by chunk as the server writes it.
///
/// Iterate it once (a second iterator is a programming error). While the consumer is behind, the client stops
/// reading the socket, so the server's writes slow down instead of the client's memory filling up. Iteration
/// ends when the body is complete; it throws ``UnixHTTPClientError/malformedResponse(reason:)`` when the
/// connection ends first (a truncated body) and ends early, without an error, when its task is cancelled.
public struct HTTPClientResponseBody: AsyncSequence, Sendable {
    /// A chunk of body bytes.
    public typealias Element = [UInt8]
    /// How iteration fails.
    public typealias Failure = UnixHTTPClientError

    private let chunks: HTTPClientStreamHandler.Producer

    init(_ chunks: HTTPClientStreamHandler.Producer) {
        self.chunks = chunks
    }

    /// The iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks.makeAsyncIterator())
    }

    /// The body split into lines at `\n` (a `\r` before it is dropped; the last line may lack its `\n`).
    ///
    /// - Parameter maximumLength: The longest line accepted, in bytes; a longer one fails the iteration.
    public func lines(maximumLength: Int = 1 << 20) -> HTTPClientResponseLines {
        HTTPClientResponseLines(body: self, maximumLength: maximumLength)
    }

    /// The whole body, for a response that is not a stream (an error answer).
    ///
    /// - Parameter limit: The most bytes kept; more fails with ``UnixHTTPClientError/malformedResponse(reason:)``.
    public func collect(upTo limit: Int = 1 << 20) async throws(UnixHTTPClientError) -> [UInt8] {
        var bytes: [UInt8] = []
        for try await chunk in self {
            bytes += chunk
            guard bytes.count <= limit else { throw .malformedResponse(reason: "the body exceeds \(limit) bytes") }
        }
        return bytes
    }

    /// Yields the chunks.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// How iteration fails.
        public typealias Failure = UnixHTTPClientError

        private var base: HTTPClientStreamHandler.Producer.AsyncIterator

        init(_ base: HTTPClientStreamHandler.Producer.AsyncIterator) {
            self.base = base
        }

        /// The next chunk, or `nil` once the body is complete (or the task was cancelled).
        public mutating func next() async throws(UnixHTTPClientError) -> [UInt8]? {
            do {
                return try await base.next()
            } catch let error as MalformedResponse {
                throw .malformedResponse(reason: error.reason)
            } catch is CancellationError {
                return nil
            } catch {
                throw .malformedResponse(reason: "\(error)")
            }
        }
    }
}
