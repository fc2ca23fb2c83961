import Foundation
import Glibc
import NIOHTTP1
import StateStoreTesting
import TestSupport
import Testing
import UnixHTTP

@Suite struct ClientTests {
    @Test func missingSocketIsUnreachableWithENOENT() async throws {
        let directory = try TemporaryDirectory(prefix: "uh")
        defer { directory.remove() }
        let client = UnixHTTPClient(socketPath: directory.file("s.sock"))
        await #expect {
            try await client.send(method: .GET, path: "/v1/status")
        } throws: { error in
            guard case UnixHTTPClientError.unreachable(let path, let code, _) = error else { return false }
            return path == directory.file("s.sock") && code == ENOENT
        }
    }

    @Test func socketNobodyListensOnIsUnreachableWithECONNREFUSED() async throws {
        let directory = try TemporaryDirectory(prefix: "uh")
        defer { directory.remove() }
        close(try RawSocket.bound(directory.file("s.sock"), listening: false))
        await #expect {
            try await UnixHTTPClient(socketPath: directory.file("s.sock")).send(method: .GET, path: "/")
        } throws: { error in
            guard case UnixHTTPClientError.unreachable(_, let code, _) = error else { return false }
            return code == ECONNREFUSED
        }
    }

    @Test func slowServerTimesOut() async throws {
        try await withServer { _, path in
            let client = UnixHTTPClient(socketPath: path, timeout: .milliseconds(200))
            // The server would answer after 3 s: only the client's own timeout makes this throw.
            await #expect(throws: UnixHTTPClientError.timedOut(path: path, after: .milliseconds(200))) {
                try await client.send(method: .GET, path: "/v1/slow?ms=3000")
            }
        }
    }

    @Test func nonHTTPAnswerIsMalformed() async throws {
        let directory = try TemporaryDirectory(prefix: "uh")
        defer { directory.remove() }
        let descriptor = try RawSocket.bound(directory.file("s.sock"), listening: true)
        defer { close(descriptor) }
        let answering = Task {
            await offThePool { answerGarbage(descriptor) }
        }
        await #expect {
            try await UnixHTTPClient(socketPath: directory.file("s.sock")).send(method: .GET, path: "/")
        } throws: { error in
            guard case UnixHTTPClientError.malformedResponse = error else { return false }
            return true
        }
        await answering.value
    }

    /// Accepts one connection, reads the request and answers with bytes that are not HTTP.
    private func answerGarbage(_ descriptor: Int32) {
        let connection = accept(descriptor, nil, nil)
        var scratch = [UInt8](repeating: 0, count: 4096)
        _ = recv(connection, &scratch, scratch.count, 0)
        let garbage = Array("SSH-2.0-OpenSSH\r\n\r\n".utf8)
        _ = send(connection, garbage, garbage.count, Int32(MSG_NOSIGNAL))
        close(connection)
    }

    @Test func headersAndBodyRoundTrip() async throws {
        try await withServer { _, path in
            let response = try await UnixHTTPClient(socketPath: path).send(
                method: .POST, path: "/v1/echo", headers: ["Content-Type": "application/json"], body: Array("{}".utf8))
            #expect(response.status == .ok)
            #expect(response.headers.first(name: "CONTENT-LENGTH") == "2")
            #expect(response.body == Array("{}".utf8))
        }
    }
}

@Suite struct ConnectionResetTests {
    /// A socket-activated service that fails to start: systemd closes the listening socket and the queued
    /// connection is reset after `connect()` succeeded. Nothing answered: unreachable, not a malformed response.
    @Test(arguments: [false, true])
    func aResetBeforeAnyAnswerIsUnreachable(streaming: Bool) async throws {
        let directory = try TemporaryDirectory(prefix: "uh")
        defer { directory.remove() }
        let listener = try ResettingListener(path: directory.file("s.sock"))
        let resetting = Task { await listener.resetOneConnection() }
        let client = UnixHTTPClient(socketPath: directory.file("s.sock"))
        let error = await #expect(throws: UnixHTTPClientError.self) {
            if streaming {
                _ = try await client.open(method: .GET, path: "/v1/events")
            } else {
                _ = try await client.send(method: .GET, path: "/v1/status")
            }
        }
        guard case .unreachable(let path, let code, let reason) = error else {
            Issue.record("expected .unreachable, got \(String(describing: error))")
            return
        }
        #expect(path == directory.file("s.sock"))
        #expect(code == ECONNRESET || code == EPIPE, "\(reason)")
        #expect(reason.contains("before any response"), "\(reason)")
        await resetting.value
    }
}
