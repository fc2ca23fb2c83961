import StateStoreTesting
import Systemd
import TestSupport
import Testing

/// The watchdog against a real notify socket, in a child process whose environment carries `WATCHDOG_USEC`.
@Suite struct WatchdogProcessTests {
    @Test func pingsTheSocketUntilTheHealthCheckFails() async throws {
        let directory = try TemporaryDirectory(prefix: "sd")
        defer { directory.remove() }
        let listener = try NotifyListener(path: directory.path + "/notify")
        let result = try await runCommand(
            [TestPaths.helper, "watchdog", "3", "8"],
            environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "200000"])
        #expect(result.value("timeout_usec") == "200000")
        #expect(result.value("pinged") == "3")
        #expect(Int(result.value("unhealthy") ?? "") ?? 0 >= 1)
        let datagrams = listener.drain()
        #expect(datagrams.map(\.text) == ["WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1"])
        #expect(datagrams.allSatisfy { $0.pid == result.pid })
    }

    @Test func watchdogPidOfTheProcessEnablesIt() async throws {
        let result = try await runCommand(
            ["/bin/sh", "-c", #"WATCHDOG_PID=$$ exec "$0" watchdog"#, TestPaths.helper],
            environment: ["WATCHDOG_USEC": "5000000"])
        #expect(result.lines == ["timeout_usec=5000000"])
    }

    @Test func watchdogPidOfAnotherProcessDisablesIt() async throws {
        let result = try await runCommand(
            [TestPaths.helper, "watchdog"], environment: ["WATCHDOG_USEC": "5000000", "WATCHDOG_PID": "1"])
        #expect(result.lines == ["watchdog=off"])
    }

    @Test func noWatchdogUsecMeansOff() async throws {
        let result = try await runCommand([TestPaths.helper, "watchdog"])
        #expect(result.lines == ["watchdog=off"])
    }

    @Test func malformedWatchdogUsecIsAnError() async throws {
        let result = try await runCommand([TestPaths.helper, "watchdog"], environment: ["WATCHDOG_USEC": "soon"])
        #expect(result.lines == ["error=WATCHDOG_USEC/WATCHDOG_PID are not valid (sd_watchdog_enabled: errno 22)"])
    }
}
