/// How the journal log handler is set up.
public struct JournalLoggingConfiguration: Sendable, Equatable {
    /// How the output is chosen.
    public enum OutputSelection: Sendable, Equatable {
        /// ``LogOutput/detect(environment:stderrIdentity:)`` for the current process, at bootstrap.
        case automatic
        /// Always this output (tests, or an operator's override).
        case forced(LogOutput)
    }

    /// `SYSLOG_IDENTIFIER`, the name `journalctl -t` filters on.
    public var identifier: String
    /// Put in front of every metadata key before it becomes a journal field name (see ``JournalFieldName``).
    public var fieldPrefix: String
    /// How the output is chosen.
    public var output: OutputSelection
    /// The descriptor the stderr outputs write to (2 unless a test redirects it).
    public var stderrFileDescriptor: Int32

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - identifier: `SYSLOG_IDENTIFIER`; the program's file name by default.
    ///   - fieldPrefix: the metadata field prefix, empty by default.
    ///   - output: automatic by default.
    ///   - stderrFileDescriptor: 2 by default.
    public init(
        identifier: String = JournalLoggingConfiguration.programName(),
        fieldPrefix: String = "",
        output: OutputSelection = .automatic,
        stderrFileDescriptor: Int32 = 2
    ) {
        self.identifier = identifier
        self.fieldPrefix = fieldPrefix
        self.output = output
        self.stderrFileDescriptor = stderrFileDescriptor
    }

    /// The last path component of `argv[0]`.
    public static func programName() -> String {
        let path = CommandLine.arguments.first ?? "swift"
        return path.split(separator: "/").last.map(String.init) ?? path
    }
}
