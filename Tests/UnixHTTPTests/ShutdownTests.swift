import Foundation
import StateStoreTesting
import TestSupport
import Testing
import UnixHTTP

/// How ``HTTPServer/shutdown()`` treats each kind of open connection, with a grace period (60 s) far beyond every
/// wait here, so that none of them is closed by its end.
@Suite struct ShutdownTests {
    /// A keep-alive connection between requests is closed at once; one that has not sent anything yet is given two
    /// seconds for its request. Compared with each other, both instants seen by threads of their own, so a loaded
    /// machine delays both alike.
    @Test func anIdleKeepAliveConnectionClosesAtOnceAndAnUnusedOneGetsTimeForItsRequest() async throws {
        let directory = try TemporaryDirectory(prefix: "uh")
        defer { directory.remove() }
        let path = directory.file("s.sock")
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(socketPath: path, shutdownGracePeriod: .seconds(60)),
            router: try fixtureRouter(), logger: quietLogger)
        try await server.start()
        let used = try RawConnection(path: path)
        used.send("GET /v1/projects/active HTTP/1.1\r\nHost: x\r\n\r\n")
        let answer = try #require(await used.readResponse())
        #expect(answer.headers["connection"] == nil, "kept alive")
        let unused = try RawConnection(path: path)
        // The server accepts in order: once a later connection is answered, `unused` has been accepted too.
        _ = try await UnixHTTPClient(socketPath: path).send(method: .GET, path: "/v1/projects/active")
        let usedHangUp = used.startWatchingForHangUp(timeout: .seconds(30))
        let unusedHangUp = unused.startWatchingForHangUp(timeout: .seconds(30))
        await server.shutdown()
        let usedEnd = try #require(await usedHangUp.value, "the idle keep-alive connection stayed open")
        let unusedEnd = try #require(await unusedHangUp.value, "the unused connection stayed open")
        #expect(
            unusedEnd - usedEnd > .seconds(1),
            "the unused connection closed \(unusedEnd - usedEnd) after the idle keep-alive one")
    }

    /// A keep-alive request in progress when the shutdown begins is answered whole, then its connection closes
    /// rather than waiting for another request until the grace period ends.
    @Test func aKeepAliveRequestInProgressIsAnsweredAndItsConnectionThenClosed() async throws {
        let directory = try TemporaryDirectory(prefix: "uh")
        defer { directory.remove() }
        let path = directory.file("s.sock")
        let (started, signal) = AsyncStream.makeStream(of: Void.self)
        var router = HTTPRouter()
        try router.register(.GET, "/hold") { _ in
            signal.yield()
            // Answers once the socket file is gone, so the shutdown has begun (or after the test deadline).
            _ = await eventually { !FileManager.default.fileExists(atPath: path) }
            return text("held")
        }
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(socketPath: path, shutdownGracePeriod: .seconds(60)),
            router: router, logger: quietLogger)
        try await server.start()
        let connection = try RawConnection(path: path)
        connection.send("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n")
        for await _ in started { break }
        let stopping = Task { await server.shutdown() }
        let response = try #require(await connection.readResponse(), "cut off before its answer")
        #expect(response.status == 200)
        #expect(response.text == "held")
        #expect(await connection.closedByServer(), "left open after its answer")
        await stopping.value
    }
}
