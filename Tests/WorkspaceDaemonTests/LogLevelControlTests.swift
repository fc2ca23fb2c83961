import Logging
import Synchronization
import Testing
import WorkspaceDaemon

@Suite("The shared log level")
struct LogLevelControlTests {
    func logger(_ control: LogLevelControl, into records: SharedRecords) -> Logger {
        Logger(label: "test") { _ in LevelControlledLogHandler(records.handler(), control: control) }
    }

    final class SharedRecords: Sendable {
        let lines = Mutex<[String]>([])
        func handler() -> ForwardingHandler { ForwardingHandler(sink: self) }
    }

    struct ForwardingHandler: LogHandler {
        let sink: SharedRecords
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { sink.lines.withLock { $0.append("\(event.message)") } }
    }

    @Test func settingOneLoggersLevelLeavesTheOthersAndTheSharedLevelAlone() {
        let control = LogLevelControl(.info)
        let records = SharedRecords()
        var quiet = logger(control, into: records)
        let other = logger(control, into: records)
        quiet.logLevel = .error
        #expect(quiet.logLevel == .error)
        #expect(other.logLevel == .info, "another logger keeps the shared level")
        #expect(control.current == .info, "the shared level is not changed by one logger")
        quiet.info("quiet info")
        other.info("other info")
        quiet.error("quiet error")
        #expect(records.lines.withLock { $0 } == ["other info", "quiet error"])
    }

    @Test func aReloadChangesEveryLoggerWithoutItsOwnLevel() {
        let control = LogLevelControl(.info)
        let records = SharedRecords()
        let early = logger(control, into: records)
        early.debug("hidden")
        control.current = .debug
        early.debug("shown")
        #expect(early.logLevel == .debug)
        #expect(records.lines.withLock { $0 } == ["shown"])
    }
}
