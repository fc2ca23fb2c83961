import StateStoreTesting
import Systemd
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `LibsystemdNotifier` runs in a child process (`SystemdTestHelper notify`) with its own `NOTIFY_SOCKET`, so
/// the test process environment is never changed.
@Suite struct LibsystemdNotifierTests {
    @Test func sendsEachCallAsOneDatagramInOrderFromItsPid() async throws {
        let directory = try TemporaryDirectory(prefix: "sd")
        defer { directory.remove() }
        let listener = try NotifyListener(path: directory.path + "/notify")
        let result = try await runCommand([TestPaths.helper, "notify"], environment: ["NOTIFY_SOCKET": listener.path])
        #expect(result.status == 0)
        #expect(result.lines == ["enabled=true", "ok"])
        let datagrams = listener.drain()
        // The reload's MONOTONIC_USEC differs per run: check its shape, then compare the rest exactly.
        let texts = datagrams.map { text in
            text.text.replacing(#/MONOTONIC_USEC=[0-9]+\n/#, with: "MONOTONIC_USEC=<now>\n")
        }
        #expect(
            texts == [
                "READY=1\nSTATUS=started",
                "STATUS=serving 2 workspaces",
                "RELOADING=1\nMONOTONIC_USEC=<now>\nSTATUS=reloading configuration",
                "READY=1",
                "WATCHDOG=1",
                "EXTEND_TIMEOUT_USEC=1500000",
                "STATUS=disk failed\nERRNO=5",
                "STOPPING=1\nSTATUS=shutting down",
            ])
        #expect(datagrams.allSatisfy { $0.pid == result.pid })
    }

    @Test func isANoOpWithoutNotifySocket() async throws {
        let result = try await runCommand([TestPaths.helper, "notify"])
        #expect(result.lines == ["enabled=false", "ok"])
    }

    @Test func missingSocketThrowsWithErrnoAndMessage() async throws {
        let result = try await runCommand(
            [TestPaths.helper, "notify"], environment: ["NOTIFY_SOCKET": "/tmp/systemd-tests-no-such-socket"])
        #expect(result.lines == ["enabled=true", #"error=sd_notify failed (errno 2) for "READY=1\nSTATUS=started""#])
    }
}
