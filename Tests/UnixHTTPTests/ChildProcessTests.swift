import Foundation
import Glibc
import StateStoreTesting
import TestSupport
import Testing
import UnixHTTP

/// SwiftNIO accepts connections without `SOCK_CLOEXEC`, so a child spawned while one is open inherits the server's
/// end. These tests pin down that the test suite's spawner closes inherited descriptors: without it, a closed
/// connection stays open in the child and its client never sees EOF (the flaky CI failure this guards against).
@Suite struct ChildProcessTests {
    @Test func aChildSpawnedWhileAConnectionIsOpenDoesNotKeepItOpen() async throws {
        try await withServer { _, path in
            let connection = try RawConnection(path: path)
            connection.send("GET /v1/projects/p1 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await connection.readResponse()?.text == "project p1")
            let directory = try TemporaryDirectory(prefix: "uh")
            defer { directory.remove() }
            let child = try RunningProcess(
                "/bin/sleep", ["30"], environment: [:], outputPath: directory.path + "/sleep.log")
            defer { child.send(SIGKILL) }
            connection.send("GET /v1/projects/p2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(await connection.readResponse()?.text == "project p2")
            #expect(await connection.closedByServer())
        }
    }

    @Test func closeFromStartsAboveEveryPlacedDescriptor() {
        #expect(ProcessSpawn.firstUnplaced(targets: []) == 3)
        #expect(ProcessSpawn.firstUnplaced(targets: [3, 4]) == 5)
        #expect(ProcessSpawn.firstUnplaced(targets: [7, 3]) == 8)
    }
}
