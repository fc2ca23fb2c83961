import Foundation
import Glibc
import StateStoreTesting
import Synchronization
import TestSupport
import UnixHTTP

/// What the streaming routes' producers did, for the tests to check.
final class StreamProbe: Sendable {
    private struct State {
        var chunksWritten = 0
        var returned = false
        var cancelled = false
        var writeFailed = false
    }

    private let state = Mutex(State())

    var chunksWritten: Int { state.withLock { $0.chunksWritten } }
    var returned: Bool { state.withLock { $0.returned } }
    var cancelled: Bool { state.withLock { $0.cancelled } }
    var writeFailed: Bool { state.withLock { $0.writeFailed } }

    func wrote() { state.withLock { $0.chunksWritten += 1 } }
    func didReturn() { state.withLock { $0.returned = true } }
    func wasCancelled() { state.withLock { $0.cancelled = true } }
    func failedToWrite() { state.withLock { $0.writeFailed = true } }
}

/// Routes with streamed bodies, reporting to `probe`:
/// - `/stream?n=N`: `line 1\n` … `line N\n`, then the end;
/// - `/bulk?kb=N`: N chunks of 1 KiB (1023 `x` and `\n`), each counted once written;
/// - `/forever`: `hello\n`, then nothing until cancelled, then `bye\n` and the end;
/// - `/fail`: `partial\n`, then the producer throws.
func streamingRouter(_ probe: StreamProbe) throws -> HTTPRouter {
    var router = HTTPRouter()
    try router.register(.GET, "/stream") { request in
        let count = Int(request.query("n") ?? "3") ?? 3
        return .stream(headers: ["Content-Type": "application/x-ndjson"]) { writer in
            for index in 1...max(1, count) { try await writer.write(Array("line \(index)\n".utf8)) }
            probe.didReturn()
        }
    }
    try router.register(.GET, "/bulk") { request in
        let kilobytes = Int(request.query("kb") ?? "1") ?? 1
        return .stream { writer in
            let chunk = Array(repeating: UInt8(ascii: "x"), count: 1023) + [UInt8(ascii: "\n")]
            do {
                for _ in 0..<kilobytes {
                    try await writer.write(chunk)
                    probe.wrote()
                }
            } catch {
                probe.failedToWrite()
                throw error
            }
            probe.didReturn()
        }
    }
    try router.register(.GET, "/forever") { _ in
        .stream { writer in
            try await writer.write(Array("hello\n".utf8))
            // Time under test: a stream that never ends until its task is cancelled.
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            probe.wasCancelled()
            try await writer.write(Array("bye\n".utf8))
            probe.didReturn()
        }
    }
    try router.register(.GET, "/fail") { _ in
        .stream { writer in
            try await writer.write(Array("partial\n".utf8))
            throw CancellationError()
        }
    }
    return router
}

/// Runs `body` against a started server with ``streamingRouter(_:)``, then shuts it down.
func withStreamingServer(
    _ probe: StreamProbe, configure: (inout HTTPServerConfiguration) -> Void = { _ in },
    _ body: (HTTPServer, String) async throws -> Void
) async throws {
    let directory = try TemporaryDirectory(prefix: "uh")
    defer { directory.remove() }
    var configuration = HTTPServerConfiguration(socketPath: directory.file("s.sock"))
    configure(&configuration)
    let server = HTTPServer(configuration: configuration, router: try streamingRouter(probe), logger: quietLogger)
    try await server.start()
    do {
        try await body(server, directory.file("s.sock"))
    } catch {
        await server.shutdown()
        throw error
    }
    await server.shutdown()
}

/// A blocking client socket that sends a request and then reads only when told to: it can stall like a client
/// that stopped reading. Reads run off the cooperative pool (20 s receive timeout).
final class StallingConnection: @unchecked Sendable {
    private let descriptor: Int32

    init(path: String) throws {
        descriptor = try UnixSocket.connect(path, receiveTimeout: 20)
    }

    deinit { close(descriptor) }

    /// Writes the whole text.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Reads until the server ends the connection (EOF, or a reset) or the receive timeout passes; returns the
    /// bytes and whether the connection ended.
    func readToEnd() async -> (bytes: [UInt8], ended: Bool) {
        await offThePool {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = chunk.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    bytes += chunk[..<count]
                } else {
                    return (bytes, count == 0 || errno == ECONNRESET)
                }
            }
        }
    }

    /// Reads until the bytes received so far contain `text` (or the connection ends, or 20 s pass); returns
    /// whether they do.
    func read(until text: String) async -> Bool {
        await offThePool {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while !String(decoding: bytes, as: UTF8.self).contains(text) {
                let count = chunk.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return false }
                bytes += chunk[..<count]
            }
            return true
        }
    }

    /// Starts watching, on a thread of its own, for the server to end the connection (``hangUpInstant(of:timeout:)``:
    /// nothing is read, so a stalled client stays stalled); its value is the instant it did, `nil` after `timeout`.
    func startWatchingForHangUp(timeout: Duration = .seconds(20)) -> StartedOffThePool<ContinuousClock.Instant?> {
        StartedOffThePool { hangUpInstant(of: self.descriptor, timeout: timeout) }
    }

    /// Closes the socket now (the server sees the client go away).
    func closeNow() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }
}
