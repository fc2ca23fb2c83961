import Logging

#if canImport(Glibc)
import Glibc
#endif

/// A swift-log `LogHandler` writing to the systemd journal, or to stderr when the journal is not there.
///
/// Create it through ``JournalLogging``, which picks the output. See docs/logging.md for the fields.
public struct JournalLogHandler: LogHandler {
    /// The logger label (shown by the human format).
    public let label: String
    /// The output this handler writes to.
    public let output: LogOutput
    /// The identifier, prefix and descriptor in use.
    public let configuration: JournalLoggingConfiguration
    /// Metadata added to every event of this handler.
    public var metadata: Logger.Metadata = [:]
    /// The lowest level this handler logs.
    public var logLevel: Logger.Level = .info
    /// Contributes contextual metadata to every event.
    public var metadataProvider: Logger.MetadataProvider?

    /// Creates a handler with a resolved output.
    public init(
        label: String, output: LogOutput, configuration: JournalLoggingConfiguration,
        metadataProvider: Logger.MetadataProvider? = nil
    ) {
        self.label = label
        self.output = output
        self.configuration = configuration
        self.metadataProvider = metadataProvider
    }

    /// Reads or writes one metadata entry of this handler.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one event.
    public func log(event: LogEvent) {
        write(record(for: event))
    }

    /// The record an event becomes: handler metadata, then provider metadata, then the event's, later wins.
    public func record(for event: LogEvent) -> LogRecord {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let own = event.metadata { merged.merge(own) { $1 } }
        return LogRecord(
            level: event.level, message: event.message.description, identifier: configuration.identifier,
            label: label, file: event.file, line: event.line, function: event.function, metadata: merged
        )
    }

    private func write(_ record: LogRecord) {
        switch output {
        case .journal:
            if JournalWriter.send(record.journalFields(prefix: configuration.fieldPrefix)) < 0 {
                LineWriter.write(StderrFormat.prefixed(record), to: configuration.stderrFileDescriptor)
            }
        case .prefixedStderr:
            LineWriter.write(StderrFormat.prefixed(record), to: configuration.stderrFileDescriptor)
        case .humanStderr:
            LineWriter.write(
                StderrFormat.human(record, timestamp: Self.timestamp()), to: configuration.stderrFileDescriptor)
        }
    }

    /// The local time as `HH:MM:SS.mmm`.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        localtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = Int(now.tv_nsec / 1_000_000)
        let milliText = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(milliText)"
    }
}
