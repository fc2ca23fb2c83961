import Foundation
import Glibc
import StateStoreTesting
import TestSupport
import Testing
import UnixHTTP

@Suite struct ConnectionTests {
    /// A connection holding half a request when the server shuts down is closed without an answer (the HTTP decoder
    /// reports the cut-off request as the connection goes inactive; see ConnectionLimitTests for the crash an
    /// answer written then caused). A crash fails this test run.
    @Test(arguments: [
        "GET /v1/projects/active HTTP/1.1\r\nHo", "POST /v1/echo HTTP/1.1\r\nContent-Length: 9\r\n\r\nabc",
    ])
    func aHalfReceivedRequestIsClosedQuietlyAtShutdown(half: String) async throws {
        try await withServer { _, path in
            let connection = try RawConnection(path: path)
            connection.send(half)
            let other = try RawConnection(path: path)
            other.send("GET /v1/projects/active HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await other.readResponse()?.status == 200)
            // Time under test: the half request sits in the server while it runs, before the shutdown.
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    @Test func keepAliveServesTwoRequestsOnOneConnection() async throws {
        try await withServer { _, path in
            let connection = try RawConnection(path: path)
            connection.send("GET /v1/projects/p1 HTTP/1.1\r\nHost: x\r\n\r\n")
            let first = try #require(await connection.readResponse())
            #expect(first.text == "project p1")
            #expect(first.headers["connection"] == nil)
            connection.send("POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
            let second = try #require(await connection.readResponse())
            #expect(second.text == "hello")
        }
    }

    @Test func http10RequestIsAnsweredAndClosed() async throws {
        try await withServer { _, path in
            let connection = try RawConnection(path: path)
            connection.send("GET /v1/projects/p9 HTTP/1.0\r\n\r\n")
            let response = try #require(await connection.readResponse())
            #expect(response.text == "project p9")
            #expect(response.headers["connection"] == "close")
            #expect(await connection.closedByServer())
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withServer { _, path in
            let connection = try RawConnection(path: path)
            connection.send(
                "GET /v1/slow?ms=100 HTTP/1.1\r\nHost: x\r\n\r\n" + "GET /v1/projects/p2 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /v1/projects/p3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(await connection.readResponse()?.text == "slow done")
            #expect(await connection.readResponse()?.text == "project p2")
            let last = try #require(await connection.readResponse())
            #expect(last.text == "project p3")
            #expect(last.headers["connection"] == "close")
            #expect(await connection.closedByServer())
        }
    }

    @Test func absoluteFormTargetAndHeadWithoutBody() async throws {
        try await withServer { _, path in
            let connection = try RawConnection(path: path)
            connection.send("GET http://localhost/v1/projects/p4?x=1 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await connection.readResponse()?.text == "project p4")
            // 405 for HEAD announces its JSON length but sends no body, so the next response parses cleanly.
            connection.send("HEAD /v1/projects/p4 HTTP/1.1\r\nHost: x\r\n\r\n")
            connection.send("GET /v1/projects/p5 HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try #require(await connection.readHeadResponse())
            #expect(head.status == 405)
            #expect(head.headers["content-length"] != "0")
            #expect(await connection.readResponse()?.text == "project p5")
        }
    }

    @Test func peerCredentialsAreTheTestProcess() async throws {
        try await withServer { _, path in
            let response = try await UnixHTTPClient(socketPath: path).send(method: .GET, path: "/v1/peer")
            #expect(String(decoding: response.body, as: UTF8.self) == "\(getpid()) \(getuid()) \(getgid())")
        }
    }

    @Test func authorizeHookRefusesBeforeRouting() async throws {
        let authorize: HTTPServer.Authorizer = { request in
            #expect(request.peer.uid == getuid())
            guard request.headers.first(name: "x-let-me-in") == nil else { return nil }
            return .error(.forbidden, code: "forbidden", message: "uid \(request.peer.uid) may not")
        }
        try await withServer(authorize: authorize) { _, path in
            let client = UnixHTTPClient(socketPath: path)
            let refused = try await client.send(method: .GET, path: "/v1/projects/p1")
            #expect(refused.status == .forbidden)
            #expect(try errorBody(refused.body).code == "forbidden")
            // Refused before routing: an unknown path is 403 too, not 404.
            #expect(try await client.send(method: .GET, path: "/nowhere").status == .forbidden)
            let allowed = try await client.send(method: .GET, path: "/v1/projects/p1", headers: ["X-Let-Me-In": "1"])
            #expect(allowed.status == .ok)
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl is not installed"))
    func curlWorksOverTheUnixSocket() async throws {
        try await withServer { _, path in
            let echoed = try await curl(path, "POST", "/v1/echo", body: "from curl")
            #expect(echoed.status == 200)
            #expect(echoed.body == "from curl")
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl is not installed"))
    func curlGetsTheJSON413ForATwoMebibyteBody() async throws {
        let directory = try TemporaryDirectory(prefix: "uh")
        defer { directory.remove() }
        let file = directory.path + "/big"
        try Data(repeating: 65, count: 2 << 20).write(to: URL(fileURLWithPath: file))
        try await withServer { _, path in
            // `--data-binary @FILE`: curl sends the file's bytes.
            let refused = try await curl(path, "POST", "/v1/echo", body: "@" + file)
            #expect(refused.status == 413)
            #expect(try errorBody(Array(refused.body.utf8)).code == "body_too_large")
        }
    }

    /// curl waits a second for `100 Continue` before sending a body; the server sends it at once, before the body
    /// is there (checked on the wire, not by timing).
    @Test func expectContinueIsAnsweredBeforeTheBodyIsSent() async throws {
        try await withServer { _, path in
            let connection = try RawConnection(path: path)
            connection.send("POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
            #expect(await connection.readStatusLine() == "HTTP/1.1 100 Continue")
            connection.send("hello")
            let response = try #require(await connection.readResponse())
            #expect(response.status == 200)
            #expect(response.text == "hello")
        }
    }
}
