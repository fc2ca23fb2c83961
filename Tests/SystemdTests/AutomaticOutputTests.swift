import Systemd
import Testing

/// `JournalLogging` with `.automatic` output in a child process, whose environment and stderr are set up the
/// way systemd would (or would not) set them up.
@Suite struct AutomaticOutputTests {
    @Test func journalWhenJournalStreamIsTheChildsStderr() throws {
        let result = try ChildProcess.run(
            TestPaths.helper, ["auto"],
            environment: ChildProcess.environment([
                "JOURNAL_STREAM": ChildProcess.stderrIdentityPlaceholder, "INVOCATION_ID": "0123456789abcdef",
            ]))
        #expect(result.lines == ["output=journal"])
    }

    @Test func prefixedLinesUnderSystemdWithoutTheJournalStream() throws {
        let result = try ChildProcess.run(
            TestPaths.helper, ["auto", "log"],
            environment: ChildProcess.environment([
                "JOURNAL_STREAM": "1:1", "INVOCATION_ID": "0123456789abcdef",
            ]))
        #expect(result.lines.sorted() == ["<4>disk low\\nsecond line free=3%", "output=prefixedStderr"])
    }

    @Test func humanFormatOutsideSystemd() throws {
        let result = try ChildProcess.run(
            TestPaths.helper, ["auto", "log"], environment: ChildProcess.environment([:]))
        #expect(result.value("output") == "humanStderr")
        let logged = result.lines.filter { !$0.hasPrefix("output=") }
        #expect(logged.count == 2)
        #expect(logged.first?.hasSuffix(" warning auto: disk low") == true)
        #expect(logged.last == "  second line free=3%")
    }
}
