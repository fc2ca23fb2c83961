import Foundation
import Glibc
import Logging
import StateStore
import StateStoreTesting
import TestSupport
import UnixHTTP
import WorkspaceAPI
import WorkspaceClient
import WorkspaceDaemon
import WorkspaceModel
import WorkspaceStorage

/// The control API on a real Unix socket, in process: a fresh state in a temporary directory (manual scheduler:
/// no timed saves), an event hub with a chosen buffer, and an ``UnixHTTP/HTTPServer`` serving the API's router.
final class EventsServer: Sendable {
    let directory: String
    let file: StateFile<Workspace>
    let state: PersistentState<Workspace>
    let events: EventHub
    let api: ControlAPI
    let server: HTTPServer

    var socketPath: String { directory + "/c.sock" }

    /// A client of the socket.
    var client: WorkspaceClient { WorkspaceClient(socketPath: socketPath, timeout: .seconds(30)) }

    /// Serves the API; each reader buffers `bufferSize` events; shutdown waits up to `grace` for requests.
    init(bufferSize: Int = EventHub.defaultBufferSize, grace: Duration = .seconds(10)) async throws {
        directory = "/tmp/wsd-ev-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        file = StateFile(path: directory + "/workspace.json", schema: try WorkspaceSchema.make())
        events = EventHub(bufferSize: bufferSize)
        state = PersistentState(
            file: file, loaded: try file.load(), scheduler: ManualPersistenceScheduler(),
            observer: { [events] in events.observe($0) })
        var logger = Logger(label: "events-test")
        logger.logLevel = .warning
        api = ControlAPI(
            state: state, statePath: file.path, uptime: { .seconds(1) }, logger: logger, events: events)
        server = HTTPServer(
            configuration: HTTPServerConfiguration(socketPath: directory + "/c.sock", shutdownGracePeriod: grace),
            router: api.router(), logger: logger)
        try await server.start()
    }

    /// Shuts the server down and closes the state.
    func stop() async {
        await server.shutdown()
        try? state.close()
    }

    deinit {
        try? state.close()
        file.unlock()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// A raw client of the events route that sends its request and then reads only when told to, like a watcher that
/// stopped reading its socket. Reads run on a thread of their own, off the cooperative pool.
final class StalledWatcher: @unchecked Sendable {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects and sends `GET /v1/events`.
    init(socketPath: String) throws {
        descriptor = try openRawEventsConnection(socketPath: socketPath, timeout: 20)
    }

    deinit { close(descriptor) }

    /// One event as read off the wire.
    struct Event: Sendable {
        var type: String
        var sequence: Int
        var revision: Int?
        var missed: Int?
    }

    /// Reads until `done` holds for the events read so far (each line of the body that is a JSON object), the
    /// connection ends, or the receive timeout passes; returns the events and whether the connection ended.
    func read(until done: @escaping @Sendable ([Event]) -> Bool) async -> (events: [Event], ended: Bool) {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var chunk = [UInt8](repeating: 0, count: 65536)
                while true {
                    let events = self.parsed()
                    if done(events) {
                        continuation.resume(returning: (events, false))
                        return
                    }
                    let count = chunk.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
                    guard count > 0 else {
                        continuation.resume(returning: (self.parsed(), count == 0 || errno == ECONNRESET))
                        return
                    }
                    self.buffer += chunk[..<count]
                }
            }
        }
    }

    /// Starts reading on a thread of its own until an event satisfies `found`; its value is the events read by
    /// then and the instant that one arrived (`nil` if the connection ended, or 20 s passed without a byte, first).
    func startReading(
        until found: @escaping @Sendable (WorkspaceEvent) -> Bool
    ) -> StartedOffThePool<(events: [WorkspaceEvent], at: ContinuousClock.Instant?)> {
        StartedOffThePool {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let events = self.decoded()
                if events.contains(where: found) { return (events, ContinuousClock.now) }
                let count = chunk.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return (self.decoded(), nil) }
                self.buffer += chunk[..<count]
            }
        }
    }

    /// The lines received that are events, decoded as a client decodes them.
    private func decoded() -> [WorkspaceEvent] {
        buffer.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard line.first == UInt8(ascii: "{") else { return nil }
            return try? WorkspaceEvent.decode(line: String(decoding: line, as: UTF8.self))
        }
    }

    /// Starts reading on a thread of its own until the connection ends or the receive timeout (20 s without a
    /// byte) passes; its value is the events read and the instant the server ended the connection (`nil` if it
    /// did not), so a test can time the end without waiting for a test task to be resumed.
    func startReadingToEnd() -> StartedOffThePool<(events: [Event], endedAt: ContinuousClock.Instant?)> {
        StartedOffThePool {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = chunk.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else {
                    let ended = count == 0 || errno == ECONNRESET
                    return (self.parsed(), ended ? ContinuousClock.now : nil)
                }
                self.buffer += chunk[..<count]
            }
        }
    }

    /// Starts watching, on a thread of its own and without reading, for the server to end the connection
    /// (``TestSupport/hangUpInstant(of:timeout:)``); its value is the instant it did, `nil` after `timeout`.
    func startWatchingForHangUp(timeout: Duration = .seconds(20)) -> StartedOffThePool<ContinuousClock.Instant?> {
        StartedOffThePool { hangUpInstant(of: self.descriptor, timeout: timeout) }
    }

    /// The JSON objects among the lines received (each event is one chunk: `{…}\n` between chunk framing).
    private func parsed() -> [Event] {
        // Split the bytes, not a String: "\r\n" is one Character and would not split at its "\n".
        buffer.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard line.first == UInt8(ascii: "{"),
                let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any],
                let type = object["type"] as? String, let sequence = object["sequence"] as? Int
            else { return nil }
            return Event(
                type: type, sequence: sequence, revision: object["revision"] as? Int, missed: object["missed"] as? Int)
        }
    }
}
