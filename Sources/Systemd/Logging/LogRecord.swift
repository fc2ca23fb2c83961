import Logging

/// One log event, resolved into what every output needs.
public struct LogRecord: Sendable, Equatable {
    /// The swift-log level.
    public var level: Logger.Level
    /// The message text (may span several lines).
    public var message: String
    /// `SYSLOG_IDENTIFIER`: the program name.
    public var identifier: String
    /// The logger label.
    public var label: String
    /// The source file (`#fileID`), line and function of the call.
    public var file: String
    /// The source line of the call.
    public var line: UInt
    /// The function of the call.
    public var function: String
    /// The event's ``MessageID`` when the `message-id` metadata held a valid one.
    public var messageID: MessageID?
    /// The metadata, sorted by key, with the message id removed when it was valid.
    public var metadata: [(key: String, value: String)]

    /// Creates a record.
    public init(
        level: Logger.Level, message: String, identifier: String, label: String, file: String, line: UInt,
        function: String, messageID: MessageID?, metadata: [(key: String, value: String)]
    ) {
        self.level = level
        self.message = message
        self.identifier = identifier
        self.label = label
        self.file = file
        self.line = line
        self.function = function
        self.messageID = messageID
        self.metadata = metadata
    }

    /// Builds a record from merged metadata, taking a valid ``MessageID/metadataKey`` value out as the id.
    public init(
        level: Logger.Level, message: String, identifier: String, label: String, file: String, line: UInt,
        function: String, metadata: Logger.Metadata
    ) {
        var remaining = metadata
        var messageID: MessageID?
        if case .string(let text)? = metadata[MessageID.metadataKey], let id = MessageID(text) {
            messageID = id
            remaining[MessageID.metadataKey] = nil
        }
        self.init(
            level: level, message: message, identifier: identifier, label: label, file: file, line: line,
            function: function, messageID: messageID,
            metadata: remaining.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value.journalText) }
        )
    }

    /// The journal fields of this record, in the order they are sent.
    public func journalFields(prefix: String) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [
            ("MESSAGE", message),
            ("PRIORITY", String(level.journalPriority)),
            ("SYSLOG_IDENTIFIER", identifier),
            ("CODE_FILE", file),
            ("CODE_LINE", String(line)),
            ("CODE_FUNC", function),
        ]
        if let messageID { fields.append(("MESSAGE_ID", messageID.description)) }
        for (key, value) in metadata {
            fields.append((JournalFieldName.forMetadataKey(key, prefix: prefix), value))
        }
        return fields
    }

    /// Records compare by every property, metadata pairwise.
    public static func == (lhs: LogRecord, rhs: LogRecord) -> Bool {
        lhs.level == rhs.level && lhs.message == rhs.message && lhs.identifier == rhs.identifier
            && lhs.label == rhs.label && lhs.file == rhs.file && lhs.line == rhs.line
            && lhs.function == rhs.function && lhs.messageID == rhs.messageID
            && lhs.metadata.map(\.key) == rhs.metadata.map(\.key)
            && lhs.metadata.map(\.value) == rhs.metadata.map(\.value)
    }
}

extension Logger.MetadataValue {
    /// Strings as they are; string-convertibles, arrays and dictionaries in their swift-log description.
    var journalText: String {
        if case .string(let text) = self { return text }
        return description
    }
}
