import UnixHTTP
import WorkspaceAPI

/// The lines of `GET /v1/events` as the daemon sent them (``WorkspaceClient/eventLines()``); iterate once.
public struct WorkspaceEventLines: AsyncSequence, Sendable {
    /// One event as a JSON object, without its newline.
    public typealias Element = String
    /// How iteration fails.
    public typealias Failure = WorkspaceClientError

    let lines: HTTPClientResponseLines
    let socketPath: String

    /// The iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: lines.makeAsyncIterator(), socketPath: socketPath)
    }

    /// Yields the lines.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// How iteration fails.
        public typealias Failure = WorkspaceClientError

        var base: HTTPClientResponseLines.AsyncIterator
        let socketPath: String

        /// The next line; `nil` once the daemon ended the stream (it stops) or the task was cancelled.
        ///
        /// - Throws: ``WorkspaceClientError/unreachable(socketPath:reason:)`` when the connection broke first.
        public mutating func next() async throws(WorkspaceClientError) -> String? {
            do {
                return try await base.next()
            } catch {
                throw .unreachable(socketPath: socketPath, reason: "the event stream broke off: \(error)")
            }
        }
    }
}

/// The events of `GET /v1/events`, decoded (``WorkspaceClient/events()``); iterate once.
public struct WorkspaceEventStream: AsyncSequence, Sendable {
    /// One event.
    public typealias Element = WorkspaceEvent
    /// How iteration fails.
    public typealias Failure = WorkspaceClientError

    /// The undecoded lines.
    public let lines: WorkspaceEventLines

    /// The iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(lines: lines.makeAsyncIterator())
    }

    /// Yields the events.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// How iteration fails.
        public typealias Failure = WorkspaceClientError

        var lines: WorkspaceEventLines.AsyncIterator

        /// The next event; `nil` once the daemon ended the stream or the task was cancelled.
        ///
        /// - Throws: ``WorkspaceClientError/invalidResponse(_:)`` for a line that is not an event, and what
        ///   ``WorkspaceEventLines/AsyncIterator/next()`` throws.
        public mutating func next() async throws(WorkspaceClientError) -> WorkspaceEvent? {
            guard let line = try await lines.next() else { return nil }
            do {
                return try WorkspaceEvent.decode(line: line)
            } catch {
                throw .invalidResponse("an event line is not an event: \(error); \(line.prefix(200))")
            }
        }
    }
}
