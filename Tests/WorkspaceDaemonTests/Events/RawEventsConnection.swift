import Foundation
import Glibc
import TestSupport

/// Connects to the control socket at `socketPath` and sends `GET /v1/events` with `query` (`?since=…` or empty);
/// returns the descriptor, whose reads wait at most `timeout` seconds for a byte. The raw clients of the events
/// route (``StalledWatcher``, ``EventReader``) read it as they need.
func openRawEventsConnection(socketPath: String, query: String = "", timeout: Int) throws -> Int32 {
    let descriptor = try UnixSocket.connect(socketPath, receiveTimeout: timeout)
    let request = Array("GET /v1/events\(query) HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
    _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    return descriptor
}
