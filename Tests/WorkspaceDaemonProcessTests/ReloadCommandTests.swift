import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `workspaced reload --pid PID`, the unit's `ExecReload=`, against the real daemon: it checks what the daemon
/// reads (its command line and environment, not the tool's own), signals it, and exits 78 when the configuration
/// is rejected, so that `systemctl reload` fails while the daemon keeps the previous configuration.
@Suite("workspaced reload against a running daemon", .serialized)
struct ReloadCommandTests {
    /// The tool runs with no flags and an environment of its own: only the daemon's `--config` finds the file,
    /// and only the daemon's `WORKSPACED_SAVE_MAXIMUM_DELAY_MILLISECONDS` makes the last file invalid.
    @Test func aRejectedConfigurationFailsTheReloadAndTheDaemonKeepsThePreviousOne() async throws {
        let harness = try TestDaemon()
        try harness.writeConfig(#"{"save": {"debounceMilliseconds": 500}, "logLevle": "debug"}"#)
        let process = try harness.start(environment: ["WORKSPACED_SAVE_MAXIMUM_DELAY_MILLISECONDS": "1000"])
        #expect(await harness.becomesReady(), "\(process.output)")
        let reload = ["reload", "--pid", "\(process.pid)"]

        try harness.writeConfig(#"{"save": {"debounceMilliseconds": 600}, "logLevel": "debug", "logFormat": 1}"#)
        let accepted = try await harness.runTool(reload)
        #expect(accepted.status == 0, "\(accepted.output)")
        #expect(accepted.output.contains("warning: unknown configuration key logFormat"), "\(accepted.output)")
        #expect(
            await harness.waitForMessage {
                $0.contains("configuration reloaded at") && $0.contains("(log level debug)")
                    && $0.contains("ignoring unknown config key(s): logFormat") && !$0.contains("logLevle")
            }, "the reload's STATUS has the new file's warnings only")
        let status = try await curl(harness.socketPath, "GET", "/v1/status")
        #expect(status.body.contains("logFormat") && !status.body.contains("logLevle"), "\(status.body)")

        try harness.writeConfig(#"{"save": {"debounceMilliseconds": 2000}, "logLevel": "info"}"#)
        let rejected = try await harness.runTool(reload)
        #expect(rejected.status == 78, "\(rejected.output)")
        #expect(rejected.output.contains("save.maximumDelayMilliseconds"), "\(rejected.output)")
        #expect(rejected.output.contains("keeps the previous one"), "\(rejected.output)")
        #expect(
            await harness.waitForMessage {
                $0.contains("configuration rejected at") && $0.contains("save.maximumDelayMilliseconds")
                    && $0.contains("running with the previous one")
            }, "the daemon got the signal and says it kept the previous configuration")
        #expect(await process.waitForExit(timeout: .milliseconds(200)) == nil, "a rejected reload stops nothing")

        try harness.writeConfig("{\n  \"logLevel\": \"info\"\n  \"backupsKept\": 2\n}\n")
        let broken = try await harness.runTool(reload)
        #expect(broken.status == 78, "\(broken.output)")
        #expect(broken.output.contains("not valid JSON at line 3, column 3"), "\(broken.output)")
        #expect(process.output.contains("configuration rejected, keeping the previous one"), "\(process.output)")

        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0)
    }

    /// A pid that is not a `workspaced run` (here: the test process itself) is refused before any signal, and a
    /// pid that is gone is reported; both exit 69.
    @Test func aProcessThatIsNotTheDaemonIsNeitherCheckedNorSignalled() async throws {
        let harness = try TestDaemon()
        let notADaemon = try await harness.runTool(["reload", "--pid", "\(getpid())"])
        #expect(notADaemon.status == 69, "\(notADaemon.output)")
        #expect(notADaemon.output.contains("is not a workspaced daemon"), "\(notADaemon.output)")
        let gone = try await harness.runTool(["reload", "--pid", "\(Int32.max - 1)"])
        #expect(gone.status == 69, "\(gone.output)")
        #expect(gone.output.contains("cannot read how process"), "\(gone.output)")
    }

    @Test func aConfigFileThatIsNotJSONStopsTheStartWith78AtItsLineAndColumn() async throws {
        let harness = try TestDaemon()
        try harness.writeConfig("{\n  \"logLevel\": \"info\"\n  \"backupsKept\": 2\n}\n")
        let process = try harness.start()
        #expect(await process.waitForExit() == 78)
        #expect(
            process.output.contains("\(harness.configPath): not valid JSON at line 3, column 3: expected ','"),
            "\(process.output)")
    }
}
