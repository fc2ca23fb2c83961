import StateStoreTesting
import Systemd
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct LogOutputTests {
    @Test func journalWhenStderrIsTheJournalStream() {
        let environment = ServiceEnvironment(["JOURNAL_STREAM": "8:123456", "INVOCATION_ID": "abc"])
        #expect(LogOutput.detect(environment: environment, stderrIdentity: (8, 123_456)) == .journal)
    }

    @Test func prefixedUnderSystemdWhenStderrIsSomethingElse() {
        let redirected = ServiceEnvironment(["JOURNAL_STREAM": "8:123456", "INVOCATION_ID": "abc"])
        #expect(LogOutput.detect(environment: redirected, stderrIdentity: (8, 999)) == .prefixedStderr)
        #expect(LogOutput.detect(environment: redirected, stderrIdentity: nil) == .prefixedStderr)
        let noStream = ServiceEnvironment(["INVOCATION_ID": "abc"])
        #expect(LogOutput.detect(environment: noStream, stderrIdentity: (8, 123_456)) == .prefixedStderr)
        let malformed = ServiceEnvironment(["JOURNAL_STREAM": "garbage"])
        #expect(LogOutput.detect(environment: malformed, stderrIdentity: (8, 123_456)) == .prefixedStderr)
    }

    @Test func humanOutsideSystemd() {
        #expect(LogOutput.detect(environment: ServiceEnvironment([:]), stderrIdentity: (8, 1)) == .humanStderr)
    }

    @Test func fileIdentityIsDeviceAndInode() throws {
        let directory = try TemporaryDirectory(prefix: "sd")
        defer { directory.remove() }
        try directory.write("f", "x")
        let path = directory.file("f")
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        var info = stat()
        #expect(stat(path, &info) == 0)
        let identity = try #require(LogOutput.fileIdentity(of: fd))
        #expect(identity.device == UInt64(info.st_dev))
        #expect(identity.inode == UInt64(info.st_ino))
        #expect(LogOutput.fileIdentity(of: -1) == nil)
        let environment = ServiceEnvironment(["JOURNAL_STREAM": "\(identity.device):\(identity.inode)"])
        #expect(LogOutput.detect(environment: environment, stderrIdentity: identity) == .journal)
    }

    @Test func forcedOutputWins() {
        for output in [LogOutput.journal, .prefixedStderr, .humanStderr] {
            let logging = JournalLogging(configuration: JournalLoggingConfiguration(output: .forced(output)))
            #expect(logging.output == output)
            #expect(logging.makeHandler(label: "x").output == output)
        }
    }
}
