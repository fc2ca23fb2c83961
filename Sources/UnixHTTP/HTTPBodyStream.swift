/// The body of a streamed response (``HTTPResponse/stream(_:headers:_:)``): a producer that writes it over time.
///
/// The server writes the head, then runs the producer in a task of its own with an ``HTTPBodyWriter`` for the
/// connection. HTTP/1.1 bodies are sent with chunked transfer-encoding, HTTP/1.0 ones until the connection closes;
/// either way the connection closes after the body.
///
/// - Returning ends the body (the terminating chunk is sent).
/// - Throwing aborts it: the connection is closed without the terminating chunk, so the client sees a truncated
///   body rather than a complete one.
/// - The task is cancelled when the client goes away and when ``HTTPServer/shutdown()`` begins. A producer should
///   then return promptly; it may still write what it holds, but the server closes the connection at once when
///   a write is stuck on a client that stopped reading, and within about a second in any case.
public struct HTTPBodyStream: Sendable {
    /// Writes a body through the writer it is given.
    public typealias Producer = @Sendable (HTTPBodyWriter) async throws -> Void

    private let produce: Producer

    /// A body produced by `produce`.
    public init(_ produce: @escaping Producer) {
        self.produce = produce
    }

    /// Runs the producer into `writer`: the server does this once per response; an in-memory transport (a test)
    /// may do it with a writer that collects the chunks.
    public func run(into writer: HTTPBodyWriter) async throws {
        try await produce(writer)
    }
}
