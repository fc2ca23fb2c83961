import Logging
import Systemd

/// Sets up swift-log for the daemon: journal entries with `SYSLOG_IDENTIFIER=workspaced` under systemd, `<N>`
/// lines or a human format elsewhere (chosen by the Systemd library), at a level a reload can change.
package enum DaemonLogging {
    /// The journal identifier of every entry.
    package static let identifier = "workspaced"

    /// Bootstraps swift-log once per process and returns the control of the shared level.
    package static func bootstrap(level: Logger.Level) -> LogLevelControl {
        let control = LogLevelControl(level)
        let logging = JournalLogging(configuration: JournalLoggingConfiguration(identifier: identifier))
        LoggingSystem.bootstrap { label in
            LevelControlledLogHandler(logging.makeHandler(label: label, logLevel: .trace), control: control)
        }
        return control
    }
}
