import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `workspaced run` reads its configuration file once: the values it runs with are those of the bytes whose keys
/// it checked, and the start pays for one read.
@Suite(
    "The configuration file is read once (strace)",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "strace is not installed"))
struct ConfigurationReadOnceTests {
    @Test func theStartOpensTheConfigurationFileOnceAndRunsWithItsValues() async throws {
        let harness = try TestDaemon()
        // A value the run shows (the log level), and an unknown key, which needs the key check's read.
        try harness.writeConfig(#"{"logLevel": "debug", "save": {"debounceMilliseconds": 40}, "unknownKey": 1}"#)
        let log = harness.root + "/strace.log"
        let strace = try harness.start(
            launcher: ["/usr/bin/strace", "-f", "-qq", "-yy", "-o", log, "-e", "trace=openat,open", "--"])
        #expect(await harness.becomesReady(), "\(strace.output)")
        let daemon = try #require(SyscallOrderTests.child(of: strace.pid), "no daemon process under strace")
        kill(daemon, SIGTERM)
        #expect(await strace.waitForExit() == 0, "\(strace.output)")
        let trace = SyscallTrace(log: try String(contentsOfFile: log, encoding: .utf8))
        let opens = trace.calls.filter { $0.strings.contains(harness.configPath) }
        #expect(opens.count == 1, "\(opens)")
        #expect(opens.allSatisfy { $0.succeeded }, "\(opens)")
        let output = strace.output
        #expect(output.contains("unknownKey"), "the unknown key was not reported: \(output)")
        #expect(output.contains("debug"), "the file's log level was not used: \(output)")
    }
}
