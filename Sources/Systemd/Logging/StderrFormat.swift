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
        let lines = record.message.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let message = lines.joined(separator: "\n  ")
        return "\(timestamp) \(record.level) \(record.label): \(message)\(escapeNewlines(pairs(record)))\n"
    }

    private static func pairs(_ record: LogRecord) -> String {
        var text = ""
        if let id = record.messageID { text += " \(MessageID.metadataKey)=\(id)" }
        for (key, value) in record.metadata { text += " \(key)=\(value)" }
        return text
    }

    private static func escapeNewlines(_ text: String) -> String {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: "\\n")
    }
}
