/// A streamed body split into lines (``HTTPClientResponseBody/lines(maximumLength:)``), e.g. the events of a
/// newline-delimited JSON stream. Empty lines are kept; invalid UTF-8 is replaced (U+FFFD).
public struct HTTPClientResponseLines: AsyncSequence, Sendable {
    /// One line, without its `\n` (or `\r\n`).
    public typealias Element = String
    /// How iteration fails.
    public typealias Failure = UnixHTTPClientError

    let body: HTTPClientResponseBody
    let maximumLength: Int

    /// The iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: body.makeAsyncIterator(), maximumLength: maximumLength)
    }

    /// Yields the lines.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// How iteration fails.
        public typealias Failure = UnixHTTPClientError

        private var chunks: HTTPClientResponseBody.AsyncIterator
        private let maximumLength: Int
        private var buffer: [UInt8] = []
        /// Bytes at the front of `buffer` already searched for a newline.
        private var searched = 0
        private var ended = false

        init(chunks: HTTPClientResponseBody.AsyncIterator, maximumLength: Int) {
            self.chunks = chunks
            self.maximumLength = maximumLength
        }

        /// The next line, or `nil` once the body is complete.
        public mutating func next() async throws(UnixHTTPClientError) -> String? {
            while true {
                if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                    var line = buffer[..<newline]
                    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                    let text = String(decoding: line, as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    searched = 0
                    return text
                }
                searched = buffer.count
                guard buffer.count <= maximumLength else {
                    throw .malformedResponse(reason: "a line of the body is longer than \(maximumLength) bytes")
                }
                if ended {
                    guard !buffer.isEmpty else { return nil }
                    defer { buffer = [] }
                    return String(decoding: buffer, as: UTF8.self)
                }
                if let chunk = try await chunks.next() {
                    buffer += chunk
                } else {
                    ended = true
                }
            }
        }
    }
}
