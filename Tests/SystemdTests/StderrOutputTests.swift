import Logging
import Testing

@testable import Systemd

#if canImport(Glibc)
import Glibc
#endif

@Suite struct StderrOutputTests {
    private let record = LogRecord(
        level: .warning, message: "disk low\nfree: 3%", identifier: "workspaced", label: "store",
        file: "StateStore/Store.swift", line: 42, function: "save()",
        messageID: MessageID("5a4a3c9f1b2e4d6f8a7b9c0d1e2f3a4b"),
        metadata: [(key: "path", value: "/var/lib/w"), (key: "tries", value: "2")])

    @Test func prefixedFormatIsOneLineWithPriority() {
        #expect(
            StderrFormat.prefixed(record)
                == "<4>disk low\\nfree: 3% message-id=5a4a3c9f1b2e4d6f8a7b9c0d1e2f3a4b path=/var/lib/w tries=2\n")
    }

    @Test func humanFormatIndentsContinuationLines() {
        #expect(
            StderrFormat.human(record, timestamp: "12:00:00.000")
                == "12:00:00.000 warning store: disk low\n  free: 3% message-id=5a4a3c9f1b2e4d6f8a7b9c0d1e2f3a4b"
                + " path=/var/lib/w tries=2\n")
    }

    /// Every `Character` that is a newline is found by the byte check and escaped; text with bytes that end one
    /// elsewhere (é is C3 A9, Ņ is C5 85, ‥ is E2 80 A5) is not split and comes out unchanged.
    @Test(arguments: ["\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"])
    func everyNewlineCharacterIsEscaped(newline: String) {
        let record = infoRecord("a\(newline)b", key: "k", value: "x\(newline)y")
        #expect(StderrFormat.prefixed(record) == "<6>a\\nb k=x\\ny\n")
        #expect(StderrFormat.human(record, timestamp: "T") == "T info l: a\n  b k=x\\ny\n")
        #expect(StderrFormat.containsNewline("a\(newline)b"))
    }

    @Test func textWithoutNewlinesIsUnchanged() {
        let record = infoRecord("café Ņ — ok", key: "path", value: "/tmp/é")
        #expect(StderrFormat.prefixed(record) == "<6>café Ņ — ok path=/tmp/é\n")
        #expect(StderrFormat.human(record, timestamp: "T") == "T info l: café Ņ — ok path=/tmp/é\n")
        #expect(!StderrFormat.containsNewline("plain text, with = and / and 100%"))
        #expect(!StderrFormat.containsNewline("café Ņ ‥ \u{A8}\u{A9}\u{2027}\u{202A}"))
    }

    @Test func prefixedHandlerWritesEveryLevelWithItsPriority() throws {
        let output = try capture(.prefixedStderr) { logger in
            logger.trace("t")
            logger.debug("d")
            logger.info("i", metadata: ["k": "v"])
            logger.notice("n")
            logger.warning("w")
            logger.error("e\nsecond")
            logger.critical("c")
        }
        #expect(output == "<7>t\n<7>d\n<6>i k=v\n<5>n\n<4>w\n<3>e\\nsecond\n<2>c\n")
    }

    @Test func humanHandlerWritesTimeLevelAndLabel() throws {
        let output = try capture(.humanStderr) { logger in
            logger.notice("hello", metadata: ["user": "ada"])
        }
        let parts = output.split(separator: " ", maxSplits: 1)
        #expect(parts.count == 2)
        #expect(parts.first?.count == 12)
        #expect(parts.first?.filter { $0 == ":" }.count == 2)
        #expect(parts.last == "notice test.label: hello user=ada\n")
    }

    @Test func handlerMergesHandlerProviderAndEventMetadata() {
        var handler = JournalLoggingTests.logging(.prefixedStderr, fd: -1).makeHandler(
            label: "l", metadataProvider: Logger.MetadataProvider { ["a": "provider", "b": "provider"] })
        handler[metadataKey: "a"] = "handler"
        handler[metadataKey: "c"] = "handler"
        let record = handler.record(
            for: LogEvent(
                level: .info, message: "m", metadata: ["b": "event"], source: "s", file: "F/f.swift",
                function: "g()", line: 3))
        #expect(record.metadata.map(\.key) == ["a", "b", "c"])
        #expect(record.metadata.map(\.value) == ["provider", "event", "handler"])
        #expect(record.identifier == "test-identifier")
        #expect(record.file == "F/f.swift" && record.line == 3 && record.function == "g()")
    }

    /// An info record of label `l` with one metadata pair.
    private func infoRecord(_ message: String, key: String, value: String) -> LogRecord {
        LogRecord(
            level: .info, message: message, identifier: "w", label: "l", file: "f", line: 1, function: "g",
            messageID: nil, metadata: [(key: key, value: value)])
    }

    /// Logs through a handler writing to a pipe and returns what arrived.
    private func capture(_ output: LogOutput, _ body: (Logger) -> Void) throws -> String {
        var ends: [Int32] = [0, 0]
        #expect(closeOnExecPipe(&ends) == 0)
        let logging = JournalLoggingTests.logging(output, fd: ends[1])
        body(Logger(label: "test.label") { logging.makeHandler(label: $0, logLevel: .trace) })
        close(ends[1])
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        close(ends[0])
        return String(decoding: bytes, as: UTF8.self)
    }
}

enum JournalLoggingTests {
    static func logging(_ output: LogOutput, fd: Int32) -> JournalLogging {
        JournalLogging(
            configuration: JournalLoggingConfiguration(
                identifier: "test-identifier", output: .forced(output), stderrFileDescriptor: fd))
    }
}
