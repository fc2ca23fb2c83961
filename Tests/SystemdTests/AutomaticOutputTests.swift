import Systemd
import TestSupport
import Testing

/// `JournalLogging` with `.automatic` output in a child process, whose environment and stderr are set up the
/// way systemd would (or would not) set them up.
@Suite struct AutomaticOutputTests {
    @Test func journalWhenJournalStreamIsTheChildsStderr() async throws {
        let result = try await runCommand(
            [TestPaths.helper, "auto"], environment: ["INVOCATION_ID": "0123456789abcdef"],
            stderrIdentity: "JOURNAL_STREAM")
        #expect(result.lines == ["output=journal"])
    }

    @Test func prefixedLinesUnderSystemdWithoutTheJournalStream() async throws {
        let result = try await runCommand(
            [TestPaths.helper, "auto", "log"],
            environment: ["JOURNAL_STREAM": "1:1", "INVOCATION_ID": "0123456789abcdef"])
        #expect(result.lines.sorted() == ["<4>disk low\\nsecond line free=3%", "output=prefixedStderr"])
    }

    @Test func humanFormatOutsideSystemd() async throws {
        let result = try await runCommand([TestPaths.helper, "auto", "log"])
        #expect(result.value("output") == "humanStderr")
        let logged = result.lines.filter { !$0.hasPrefix("output=") }
        #expect(logged.count == 2)
        #expect(logged.first?.hasSuffix(" warning auto: disk low") == true)
        #expect(logged.last == "  second line free=3%")
    }
}
