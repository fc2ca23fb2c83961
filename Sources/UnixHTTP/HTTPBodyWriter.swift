/// Writes the chunks of a streamed body (``HTTPBodyStream``) as they are produced.
///
/// On a server connection each ``write(_:)`` returns once its bytes are handed to the socket: a producer that
/// writes in a loop goes no faster than its client reads (NIO's back-pressure) and never piles bytes up in
/// memory.
public struct HTTPBodyWriter: Sendable {
    /// Takes one chunk; returns once it is written.
    public typealias Sink = @Sendable ([UInt8]) async throws(HTTPBodyWriterError) -> Void

    private let sink: Sink

    /// A writer handing each chunk to `sink` (the server's writes to the connection; a test's may collect them).
    public init(_ sink: @escaping Sink) {
        self.sink = sink
    }

    /// Writes `bytes` as one chunk (nothing for an empty array) and returns once they are written.
    ///
    /// - Throws: ``HTTPBodyWriterError/connectionClosed`` when the client went away or the server closed the
    ///   connection; the producer should return.
    public func write(_ bytes: [UInt8]) async throws(HTTPBodyWriterError) {
        guard !bytes.isEmpty else { return }
        try await sink(bytes)
    }
}

/// Why an ``HTTPBodyWriter`` could not write.
public enum HTTPBodyWriterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The connection is closed (the client went away, or the server is shutting down): nothing more can be sent.
    case connectionClosed

    /// A sentence.
    public var description: String {
        switch self {
        case .connectionClosed: return "the connection is closed; the rest of the body cannot be sent"
        }
    }
}
