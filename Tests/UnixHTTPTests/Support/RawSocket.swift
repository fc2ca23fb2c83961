import Foundation
import Glibc
import TestSupport

/// Unix socket helpers written directly against Glibc, independent of the code under test.
enum RawSocket {
    /// A stream socket bound at the path; listening when asked. Returns the descriptor.
    static func bound(_ path: String, listening: Bool) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = UnixAddress(path: path)
        let result = address.withSockaddr { bind(descriptor, $0, $1) }
        guard result == 0, !listening || listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        return descriptor
    }
}

/// A blocking client connection that writes raw bytes and reads raw responses (20 s receive timeout, for a loaded machine); its reads
/// run off the cooperative pool. One test uses it at a time.
final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    init(path: String) throws {
        descriptor = try UnixSocket.connect(path, receiveTimeout: 20)
    }

    deinit { close(descriptor) }

    /// Writes everything; a peer that already closed is not an error here (the test reads what it answered).
    func send(_ text: String) {
        send(Array(text.utf8))
    }

    /// Writes everything; false when the peer closed or reset the connection before all of it was taken.
    func sendAll(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Writes everything, ignoring a peer that closed early.
    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Reads one response with a `Content-Length` body; `nil` when the connection ends first.
    func readResponse() async -> RawResponse? {
        await offThePool { self.readResponseBlocking() }
    }

    /// Starts reading one response now, on a thread of its own, and gives it with the instant it was read, taken
    /// on that thread. Started before the test goes on, the read is waiting when the response comes, so a latency
    /// measured with it includes neither the test's other steps nor the wait for a cooperative thread to resume
    /// the test (a read begun after another request's `await` measured 6.2 s for a 408 due at 0.8 s).
    func startTimedRead() -> StartedOffThePool<(response: RawResponse?, at: ContinuousClock.Instant)> {
        StartedOffThePool { (self.readResponseBlocking(), ContinuousClock.now) }
    }

    /// Reads the response to a HEAD request: a head whose `Content-Length` announces a body that is not sent.
    func readHeadResponse() async -> RawResponse? {
        await offThePool {
            while true {
                if let response = RawResponse.parse(&self.buffer, bodyless: true) { return response }
                guard self.fill() else { return nil }
            }
        }
    }

    /// True when the server closes the connection (EOF) within the receive timeout, after any pending bytes.
    func closedByServer() async -> Bool {
        await offThePool { self.closedByServerBlocking() }
    }

    /// Reads one response head, interim (1xx) ones included, and returns its status line.
    func readStatusLine() async -> String? {
        await offThePool { self.readStatusLineBlocking() }
    }

    private func readStatusLineBlocking() -> String? {
        let separator = Array("\r\n\r\n".utf8)
        while true {
            if let end = buffer.indices.first(where: { buffer[$0...].starts(with: separator) }) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + separator.count)
                return head.components(separatedBy: "\r\n").first
            }
            guard fill() else { return nil }
        }
    }

    private func readResponseBlocking() -> RawResponse? {
        while true {
            if let response = RawResponse.parse(&buffer) { return response }
            guard fill() else { return nil }
        }
    }

    private func closedByServerBlocking() -> Bool {
        while fill() {}
        return lastReadWasEOF
    }

    /// Starts watching, on a thread of its own, for the server to end the connection (``hangUpInstant(of:timeout:)``:
    /// nothing is read); its value is the instant it did, `nil` after `timeout`.
    func startWatchingForHangUp(timeout: Duration = .seconds(20)) -> StartedOffThePool<ContinuousClock.Instant?> {
        StartedOffThePool { hangUpInstant(of: self.descriptor, timeout: timeout) }
    }

    /// True when the server ends the connection within the receive timeout, by closing it (EOF) or, for a
    /// connection it never accepted before its listener closed, by the kernel resetting it.
    func endedByServer() async -> Bool {
        await offThePool { self.endedByServerBlocking() }
    }

    private func endedByServerBlocking() -> Bool {
        while fill() {}
        return lastReadWasEOF || lastReadErrno == ECONNRESET
    }

    private var lastReadWasEOF = false
    private var lastReadErrno: Int32 = 0

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        lastReadWasEOF = count == 0
        lastReadErrno = count < 0 ? errno : 0
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }
}

/// A parsed response from ``RawConnection``.
struct RawResponse {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    /// Takes one complete response off the front of the buffer (header names lower-cased).
    static func parse(_ buffer: inout [UInt8], bodyless: Bool = false) -> RawResponse? {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = buffer.indices.first(where: { buffer[$0...].starts(with: separator) }) else { return nil }
        let lines = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let length = bodyless ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        let bodyStart = end + separator.count
        guard buffer.count >= bodyStart + length else { return nil }
        let body = Array(buffer[bodyStart..<bodyStart + length])
        buffer.removeFirst(bodyStart + length)
        if (100..<200).contains(status) { return parse(&buffer, bodyless: bodyless) }
        return RawResponse(status: status, headers: headers, body: body)
    }
}
