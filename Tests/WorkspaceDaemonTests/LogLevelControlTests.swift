import Logging
import Synchronization
import Testing
import WorkspaceDaemon

@Suite("The shared log level")
struct LogLevelControlTests {
    func logger(_ control: LogLevelControl, into records: CapturedLog) -> Logger {
        Logger(label: "test") { _ in LevelControlledLogHandler(CapturedLog.Handler(sink: records), control: control) }
    }

    @Test func settingOneLoggersLevelLeavesTheOthersAndTheSharedLevelAlone() {
        let control = LogLevelControl(.info)
        let records = CapturedLog()
        var quiet = logger(control, into: records)
        let other = logger(control, into: records)
        quiet.logLevel = .error
        #expect(quiet.logLevel == .error)
        #expect(other.logLevel == .info, "another logger keeps the shared level")
        #expect(control.current == .info, "the shared level is not changed by one logger")
        quiet.info("quiet info")
        other.info("other info")
        quiet.error("quiet error")
        #expect(records.all.map(\.message) == ["other info", "quiet error"])
    }

    @Test func aReloadChangesEveryLoggerWithoutItsOwnLevel() {
        let control = LogLevelControl(.info)
        let records = CapturedLog()
        let early = logger(control, into: records)
        early.debug("hidden")
        control.current = .debug
        early.debug("shown")
        #expect(early.logLevel == .debug)
        #expect(records.all.map(\.message) == ["shown"])
    }
}
