import Logging

/// Makes journal log handlers, choosing the output once, and installs them into swift-log.
///
/// ```swift
/// let logging = JournalLogging(configuration: .init(identifier: "workspaced"))
/// logging.bootstrap()
/// ```
public struct JournalLogging: Sendable {
    /// The configuration the handlers use.
    public let configuration: JournalLoggingConfiguration
    /// The output every handler writes to (resolved from ``JournalLoggingConfiguration/output``).
    public let output: LogOutput

    /// Resolves the output: the forced one, or ``LogOutput/detectForProcess()`` for `.automatic`.
    public init(configuration: JournalLoggingConfiguration = JournalLoggingConfiguration()) {
        self.configuration = configuration
        switch configuration.output {
        case .automatic: self.output = LogOutput.detectForProcess()
        case .forced(let output): self.output = output
        }
    }

    /// A handler for `label`, logging at `logLevel` and above.
    public func makeHandler(
        label: String, logLevel: Logger.Level = .info, metadataProvider: Logger.MetadataProvider? = nil
    ) -> JournalLogHandler {
        var handler = JournalLogHandler(
            label: label, output: output, configuration: configuration, metadataProvider: metadataProvider)
        handler.logLevel = logLevel
        return handler
    }

    /// Installs these handlers as swift-log's factory (`LoggingSystem.bootstrap`; once per process).
    public func bootstrap(logLevel: Logger.Level = .info, metadataProvider: Logger.MetadataProvider? = nil) {
        let logging = self
        LoggingSystem.bootstrap(
            { label, provider in logging.makeHandler(label: label, logLevel: logLevel, metadataProvider: provider) },
            metadataProvider: metadataProvider
        )
    }
}
