/// The text formats of the stderr outputs.
public enum StderrFormat {
    /// `<N>message key=value …` on one line, `N` the journal priority.
    ///
    /// Line breaks in the message and values are written as the two characters `\n`, so that a line-based
    /// reader (journald's stderr stream included) keeps the event as one entry. The message id is written as
    /// `message-id=…` with the metadata.
    public static func prefixed(_ record: LogRecord) -> String {
        "<\(record.level.journalPriority)>" + escapeNewlines(record.message + pairs(record)) + "\n"
    }

    /// `TIME LEVEL label: message key=value …`; continuation lines of a multi-line message are indented by
    /// two spaces.
    ///
    /// - Parameters:
    ///   - record: the event.
    ///   - timestamp: the time as it should appear, for example `12:03:04.567`.
    public static func human(_ record: LogRecord, timestamp: String) -> String {
        var message = record.message
        if containsNewline(message) {
            message = message.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(
                separator: "\n  ")
        }
        return "\(timestamp) \(record.level) \(record.label): \(message)\(escapeNewlines(pairs(record)))\n"
    }

    private static func pairs(_ record: LogRecord) -> String {
        var text = ""
        if let id = record.messageID { text += " \(MessageID.metadataKey)=\(id)" }
        for (key, value) in record.metadata { text += " \(key)=\(value)" }
        return text
    }

    private static func escapeNewlines(_ text: String) -> String {
        guard containsNewline(text) else { return text }
        return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: "\\n")
    }

    /// Whether `text` holds a `Character` that is a newline, read from its UTF-8 bytes: U+000A to U+000D,
    /// U+0085 (C2 85), U+2028 and U+2029 (E2 80 A8/A9). Each is a grapheme of its own (a control), so the bytes
    /// tell exactly; splitting by `Character` walks grapheme boundaries (about 100 instructions a character), and
    /// this check lets a line without a line break, nearly every one, skip it.
    static func containsNewline(_ text: String) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in text.utf8 {
            switch byte {
            case 0x0A...0x0D: return true
            case 0x85 where previous == 0xC2: return true
            case 0xA8...0xA9 where previous == 0x80 && beforePrevious == 0xE2: return true
            default: break
            }
            beforePrevious = previous
            previous = byte
        }
        return false
    }
}
