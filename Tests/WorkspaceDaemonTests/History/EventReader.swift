import Foundation
import Glibc
import WorkspaceAPI

/// A raw reader of `GET /v1/events` on a Unix socket that gives up after a receive timeout instead of waiting for
/// an event forever: a test whose expected event never comes fails instead of hanging. Reads run on a thread of
/// their own, off the cooperative pool.
final class EventReader: @unchecked Sendable {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects and sends `GET /v1/events` with `query` (`?since=…` or empty); each read waits at most `timeout`
    /// seconds for a byte.
    init(socketPath: String, query: String = "", timeout: Int = 10) throws {
        descriptor = try openRawEventsConnection(socketPath: socketPath, query: query, timeout: timeout)
    }

    deinit { close(descriptor) }

    /// The events received once there are `count` of them, or those received when the connection ended or the
    /// receive timeout passed first.
    func read(count: Int) async -> [WorkspaceEvent] {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var chunk = [UInt8](repeating: 0, count: 65536)
                while true {
                    let events = self.decoded()
                    if events.count >= count {
                        continuation.resume(returning: Array(events.prefix(count)))
                        return
                    }
                    let received = chunk.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
                    guard received > 0 else {
                        continuation.resume(returning: events)
                        return
                    }
                    self.buffer += chunk[..<received]
                }
            }
        }
    }

    /// The lines received that are events, decoded as a client decodes them (split as bytes: the chunk framing's
    /// "\r\n" is one Character).
    private func decoded() -> [WorkspaceEvent] {
        buffer.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard line.first == UInt8(ascii: "{") else { return nil }
            return try? WorkspaceEvent.decode(line: String(decoding: line, as: UTF8.self))
        }
    }
}
