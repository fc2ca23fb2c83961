import Foundation
import TestSupport
import Testing
import UnixHTTP

@Suite struct RequestLimitTests {
    @Test func declaredContentLengthOverTheLimitIs413BeforeTheBodyIsSent() async throws {
        try await withServer(configure: { $0.maximumBodySize = 1024 }) { _, path in
            let connection = try RawConnection(path: path)
            // Only the head: the server must answer without waiting for 100,000 bytes.
            connection.send("POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
            let response = try #require(await connection.readResponse())
            #expect(response.status == 413)
            #expect(response.headers["content-type"] == "application/json")
            #expect(try errorBody(response.body).code == "body_too_large")
            #expect(await connection.closedByServer())
        }
    }

    /// A client that sends its whole body before it reads (Python's `http.client` does) still gets the 413:
    /// the server reads and discards the rest instead of resetting the connection under it.
    @Test func aClientThatSendsItsWholeBodyFirstStillReadsThe413() async throws {
        try await withServer(configure: { $0.maximumBodySize = 1024 }) { _, path in
            let connection = try RawConnection(path: path)
            let body = [UInt8](repeating: UInt8(ascii: "a"), count: 4 << 20)  // far more than the socket buffers
            let request =
                Array("POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
            let sentWhole = await offThePool { connection.sendAll(request) }
            #expect(sentWhole, "the server stopped reading and the send failed (EPIPE/ECONNRESET)")
            let response = try #require(await connection.readResponse())
            #expect(response.status == 413)
            #expect(try errorBody(response.body).code == "body_too_large")
            #expect(await connection.closedByServer())
        }
    }

    @Test func chunkedBodyOverTheLimitIs413() async throws {
        try await withServer(configure: { $0.maximumBodySize = 1024 }) { _, path in
            let connection = try RawConnection(path: path)
            connection.send("POST /v1/echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = String(repeating: "a", count: 600)
            connection.send("258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n")
            let response = try #require(await connection.readResponse())
            #expect(response.status == 413)
            #expect(try errorBody(response.body).code == "body_too_large")
            #expect(await connection.closedByServer())
        }
    }

    @Test func chunkedBodyWithinTheLimitIsReceivedWhole() async throws {
        try await withServer(configure: { $0.maximumBodySize = 1024 }) { _, path in
            let connection = try RawConnection(path: path)
            connection.send("POST /v1/echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            connection.send("3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n")
            let response = try #require(await connection.readResponse())
            #expect(response.status == 200)
            #expect(response.text == "abcdefg")
        }
    }

    @Test func bodyOfExactlyTheLimitIsAccepted() async throws {
        try await withServer(configure: { $0.maximumBodySize = 1024 }) { _, path in
            let client = UnixHTTPClient(socketPath: path)
            let exact = try await client.send(method: .POST, path: "/v1/echo", body: Array(repeating: 7, count: 1024))
            #expect(exact.status == .ok)
            #expect(exact.body.count == 1024)
            let over = try await client.send(method: .POST, path: "/v1/echo", body: Array(repeating: 7, count: 1025))
            #expect(over.status == .payloadTooLarge)
        }
    }

    @Test func defaultLimitIsOneMebibyte() {
        #expect(HTTPServerConfiguration(socketPath: "/x").maximumBodySize == 1_048_576)
    }

    @Test func malformedRequestIs400AndTheConnectionCloses() async throws {
        try await withServer { _, path in
            let connection = try RawConnection(path: path)
            connection.send("THIS IS NOT HTTP\r\n\r\n")
            let response = try #require(await connection.readResponse())
            #expect(response.status == 400)
            #expect(response.headers["content-type"] == "application/json")
            let error = try errorBody(response.body)
            #expect(error.code == "malformed_request")
            #expect(error.field == nil)
            #expect(await connection.closedByServer())
        }
    }

    @Test func malformedHeaderAfterAGoodRequestIs400() async throws {
        try await withServer { _, path in
            let connection = try RawConnection(path: path)
            connection.send("GET /v1/projects/active HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await connection.readResponse()?.status == 200)
            connection.send("GET /v1/projects/active HTTP/1.1\r\nBad Header\r\n\r\n")
            #expect(await connection.readResponse()?.status == 400)
            #expect(await connection.closedByServer())
        }
    }

    @Test func idleConnectionIsClosedAfterTheIdleTimeout() async throws {
        try await withServer(configure: { $0.idleTimeout = .milliseconds(200) }) { _, path in
            let connection = try RawConnection(path: path)
            // Without the idle timeout the read would give up after its own 20 s timeout without an EOF.
            #expect(await connection.closedByServer())
        }
    }
}
