import Foundation
import Glibc
import StateStoreTesting
import Synchronization
import TestSupport
import Testing
import UnixHTTP

/// A server whose routes come later (``HTTPServer/listen(binding:)`` then ``HTTPServer/serve(router:authorize:)``):
/// connections made in between wait in the backlog and are answered once it serves.
@Suite struct ListenThenServeTests {
    private func fileMode(_ path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode : nil
    }

    @Test func aConnectionMadeWhileListeningIsAnsweredOnceTheServerServes() async throws {
        let directory = try TemporaryDirectory(prefix: "uh")
        defer { directory.remove() }
        let path = directory.file("s.sock")
        let server = HTTPServer(configuration: HTTPServerConfiguration(socketPath: path), logger: quietLogger)
        try await server.listen(binding: .path(path))
        #expect(fileMode(path).map { $0 & S_IFMT } == S_IFSOCK, "the socket exists before the server serves")
        // Connected and sent before the routes exist: a connection accepted now would have nothing to answer it
        // and be closed, so the response below proves it waited in the backlog.
        let early = try RawConnection(path: path)
        early.send("GET /routed HTTP/1.1\r\nHost: x\r\n\r\n")
        let serving = Atomic<Bool>(false)
        var router = HTTPRouter()
        try router.register(.GET, "/routed") { _ in
            text(serving.load(ordering: .sequentiallyConsistent) ? "after serve" : "before serve")
        }
        serving.store(true, ordering: .sequentiallyConsistent)
        try await server.serve(router: router)
        let response = try #require(await early.readResponse(), "the waiting connection was dropped")
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "after serve")
        let later = try await UnixHTTPClient(socketPath: path).send(method: .GET, path: "/routed")
        #expect(later.status == .ok)
        await server.shutdown()
        #expect(fileMode(path) == nil, "the socket file is removed at shutdown")
    }

    @Test func aServerThatNeverServedShutsDownRemovingItsFileAndEndingWaitingConnections() async throws {
        let directory = try TemporaryDirectory(prefix: "uh")
        defer { directory.remove() }
        let path = directory.file("s.sock")
        let server = HTTPServer(configuration: HTTPServerConfiguration(socketPath: path), logger: quietLogger)
        try await server.listen(binding: .path(path))
        let waiting = try RawConnection(path: path)
        waiting.send("GET /anything HTTP/1.1\r\nHost: x\r\n\r\n")
        await server.shutdown()
        #expect(fileMode(path) == nil)
        #expect(await waiting.endedByServer(), "the waiting connection was left open")
        await #expect(throws: HTTPServerError.notStartable(state: "stopped")) {
            try await server.serve(router: try fixtureRouter())
        }
    }

    @Test func aServerWithoutRoutesCannotStartAndServeNeedsAListener() async throws {
        let directory = try TemporaryDirectory(prefix: "uh")
        defer { directory.remove() }
        let path = directory.file("s.sock")
        let server = HTTPServer(configuration: HTTPServerConfiguration(socketPath: path), logger: quietLogger)
        await #expect(throws: HTTPServerError.notStartable(state: "without routes")) {
            try await server.start(binding: .path(path))
        }
        #expect(fileMode(path) == nil, "nothing was bound")
        await #expect(throws: HTTPServerError.notStartable(state: "idle")) {
            try await server.serve(router: try fixtureRouter())
        }
        try await server.listen(binding: .path(path))
        try await server.serve(router: try fixtureRouter())
        await #expect(throws: HTTPServerError.notStartable(state: "running")) {
            try await server.serve(router: try fixtureRouter())
        }
        let response = try await UnixHTTPClient(socketPath: path).send(method: .GET, path: "/v1/projects/active")
        #expect(String(decoding: response.body, as: UTF8.self) == "active")
        await server.shutdown()
    }

    @Test func removingTheSocketFileBeforeExitLeavesOnlyAFileThatIsStillOurs() async throws {
        let directory = try TemporaryDirectory(prefix: "uh")
        defer { directory.remove() }
        let path = directory.file("s.sock")
        let server = HTTPServer(configuration: HTTPServerConfiguration(socketPath: path), logger: quietLogger)
        try await server.listen(binding: .path(path))
        server.removeSocketFileBeforeExit()
        #expect(fileMode(path) == nil)
        // Someone else's file at the path since: never removed.
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: path))
        server.removeSocketFileBeforeExit()
        await server.shutdown()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "theirs")
    }

    /// Asked before its bind completes (here: before it begins), the server removes the file once it is bound.
    @Test func aBindThatCompletesAfterTheRemovalWasAskedRemovesItsFile() async throws {
        let directory = try TemporaryDirectory(prefix: "uh")
        defer { directory.remove() }
        let path = directory.file("s.sock")
        let server = HTTPServer(configuration: HTTPServerConfiguration(socketPath: path), logger: quietLogger)
        server.removeSocketFileBeforeExit()
        try await server.listen(binding: .path(path))
        #expect(fileMode(path) == nil, "the bind left its file")
        await server.shutdown()
    }
}
