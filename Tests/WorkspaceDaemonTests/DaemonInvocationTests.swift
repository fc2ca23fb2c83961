import Foundation
import Testing
import WorkspaceDaemon

#if canImport(Glibc)
import Glibc
#endif

/// How `workspaced reload` reads a daemon's command line and environment from procfs.
@Suite("A running daemon's invocation")
struct DaemonInvocationTests {
    @Test func argumentsKeepAnEmptyOneAndTheEnvironmentSplitsAtTheFirstEqualsSign() throws {
        let proc = FileManager.default.temporaryDirectory.path + "/wsd-proc-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: proc + "/42", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: proc) }
        try Data("/usr/bin/workspaced\0run\0--legacy-state-path\0\0--config\0/c.json\0".utf8)
            .write(to: URL(fileURLWithPath: proc + "/42/cmdline"))
        try Data("A=1\0SWIFT_BACKTRACE=enable=no\0EMPTY=\0".utf8).write(to: URL(fileURLWithPath: proc + "/42/environ"))
        let invocation = try DaemonInvocation.of(pid: 42, proc: proc)
        #expect(
            invocation.arguments == ["/usr/bin/workspaced", "run", "--legacy-state-path", "", "--config", "/c.json"])
        #expect(invocation.environment == ["A": "1", "SWIFT_BACKTRACE": "enable=no", "EMPTY": ""])
    }

    @Test func theRealProcessOfThisTestReadsAsItsOwnCommandLine() throws {
        let invocation = try DaemonInvocation.of(pid: getpid())
        #expect(invocation.arguments == CommandLine.arguments)
        #expect(invocation.environment["PATH"] == ProcessInfo.processInfo.environment["PATH"])
    }

    @Test func aProcessThatIsGoneIsNamedWithItsErrno() {
        #expect(
            throws: DaemonInvocationError.unreadable(
                pid: Int32.max - 1, path: "/proc/\(Int32.max - 1)/cmdline", errno: ENOENT)
        ) {
            try DaemonInvocation.of(pid: Int32.max - 1)
        }
    }
}
