import Logging
import Systemd

/// Bootstraps swift-log with automatic output selection and prints `output=`; with `log`, also logs one
/// two-line warning with metadata to whatever output was chosen.
enum AutoMode {
    static func run(arguments: [String]) {
        let logging = JournalLogging(configuration: JournalLoggingConfiguration(identifier: "systemd-test-helper"))
        print("output=\(logging.output)")
        guard arguments.first == "log" else { return }
        logging.bootstrap()
        let logger = Logger(label: "auto")
        logger.warning("disk low\nsecond line", metadata: ["free": "3%"])
    }
}
