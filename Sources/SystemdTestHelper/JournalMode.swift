import Logging
import Systemd

/// Logs a fixed set of entries straight to the journal; prints `line=` of the `located` call.
enum JournalMode {
    static let messageID = MessageID("5a4a3c9f1b2e4d6f8a7b9c0d1e2f3a4b")!

    static func run() {
        let logging = JournalLogging(
            configuration: JournalLoggingConfiguration(identifier: "systemd-test-helper", output: .forced(.journal)))
        var logger = Logger(label: "helper") { logging.makeHandler(label: $0, logLevel: .trace) }
        logger[metadataKey: "run"] = "journal-test"
        logger.trace("level trace")
        logger.debug("level debug")
        logger.info("level info")
        logger.notice("level notice")
        logger.warning("level warning")
        logger.error("level error")
        logger.critical("level critical")
        logger.info("first line\nsecond line\nthird line")
        logger.info(
            "with metadata",
            metadata: [
                "request-id": "r-17", "user.name": "ada", "_secret": "s", "9lives": "cat", "message": "shadow",
                "list": ["a", "b"],
            ])
        logger.notice("with message id", metadata: .messageID(messageID))
        let line = #line + 1
        logger.info("located")
        print("line=\(line)")
    }
}
