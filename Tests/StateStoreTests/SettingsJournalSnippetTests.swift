import Foundation
import Logging
import Settings
import StateStore
import StateStoreTesting
import Synchronization
import Systemd
import Testing

/// The getting-started guide's settings service as it runs under systemd with the `Systemd` product: its journal
/// entries and their MESSAGE_IDs (the JournalFields article) and its stop told to systemd (the getting-started
/// guide). Compiled here, since the guide's own package (Tests/Newcomer) takes no trait and so has no Systemd; the
/// articles' Swift blocks are text of this file (GuideCodeTests checks), indentation aside.
@Suite struct SettingsJournalSnippetTests {
    /// The first thing the service's `main` does, before any `Logger` is made; not run here, since swift-log takes
    /// one bootstrap per process.
    static func bootstrapLogging() {
        JournalLogging(configuration: JournalLoggingConfiguration(identifier: "settings-service")).bootstrap()
    }

    /// The events the service logs with a journal `MESSAGE_ID`, so that `journalctl MESSAGE_ID=…` finds each one
    /// whatever the wording of its message. Each id was minted once with `journalctl --new-id128`; they are API:
    /// never change or reuse one.
    enum SettingsEvent: String, CaseIterable {
        /// The state file was loaded (and migrated, when it was older).
        case loaded
        /// The flush on stop made every accepted change durable.
        case flushedOnStop
        /// The flush on stop failed.
        case flushFailed

        /// The event's `MESSAGE_ID`.
        var messageID: MessageID {
            switch self {
            case .loaded: MessageID("7f56a8f80fcb43a286bc723ec76542e8")!
            case .flushedOnStop: MessageID("5ed6ee6e7f4848e3a7aef2471a5c2e18")!
            case .flushFailed: MessageID("08a80d8e0fc040ccb61927c92e540951")!
            }
        }

        /// `extra` with the event's id added under `MessageID.metadataKey`.
        func metadata(_ extra: Logger.Metadata = [:]) -> Logger.Metadata {
            extra.merging(.messageID(messageID)) { _, id in id }
        }
    }

    /// Loads the settings at `path` (migrating an older file), logs the load as the `loaded` event, and hands the
    /// state to a `PersistentState`.
    static func openState(path: String, logger: Logger) throws -> PersistentState<Settings> {
        let file = StateFile(path: path, schema: try settingsSchema())
        let loaded = try file.load()
        logger.notice(
            "\(loaded.report.summary)",
            metadata: SettingsEvent.loaded.metadata([
                "state_path": "\(file.path)", "source": "\(loaded.report.source.rawValue)",
            ]))
        return PersistentState(file: file, loaded: loaded)
    }

    /// On SIGTERM (systemd's stop) or SIGINT (Ctrl-C): tells systemd STOPPING=1, saves what is not on disk yet,
    /// logs the outcome and exits. Not run here: the signal would end the test process.
    static func flushOnStop(
        _ state: PersistentState<Settings>, logger: Logger, notifier: some ServiceNotifier
    ) {
        state.flushOnStop { event in
            switch event {
            case .stopping:
                try? notifier.stopping(status: "flushing")
            case .flushed(_, let revision):
                logger.notice(
                    "flushed on stop: revision \(revision) is on disk", metadata: SettingsEvent.flushedOnStop.metadata()
                )
            case .flushFailed(_, let error):
                logger.error("flush on stop failed: \(error)", metadata: SettingsEvent.flushFailed.metadata())
            }
        }
    }

    @Test func theEventsHaveDistinctMessageIDs() {
        #expect(Set(SettingsEvent.allCases.map(\.messageID)).count == SettingsEvent.allCases.count)
    }

    @Test func theLoadIsOneJournalEntryWithItsMessageIDAndFields() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fixture = GuideCodeTests.newcomerFixtures.appendingPathComponent("v1.json")
        try directory.write("settings.json", Data(contentsOf: fixture))
        let journal = JournalEntries()
        try Self.openState(path: directory.file("settings.json"), logger: journal.logger).close()
        let entries = journal.fields.withLock { $0 }
        #expect(entries.count == 1)
        #expect(entries.first?["MESSAGE"]?.hasPrefix("migrated version 1 to 2") == true, "\(entries)")
        #expect(entries.first?["MESSAGE_ID"] == "7f56a8f80fcb43a286bc723ec76542e8")
        #expect(entries.first?["STATE_PATH"] == directory.file("settings.json"))
        #expect(entries.first?["SOURCE"] == "file")
        #expect(entries.first?["SYSLOG_IDENTIFIER"] == "settings-service")
    }
}

/// The journal fields each entry of a logger would be sent with, kept instead of sent (the JournalFields article's
/// "Test what is logged": `JournalLogHandler/record(for:)` and `LogRecord/journalFields(prefix:)`).
final class JournalEntries: Sendable {
    /// One dictionary of fields an entry, in the order they were logged.
    let fields = Mutex<[[String: String]]>([])

    /// A logger whose entries land in ``fields``.
    var logger: Logger {
        Logger(label: "settings-service") { label in
            Recorder(
                entries: self,
                handler: JournalLogHandler(
                    label: label, output: .humanStderr,
                    configuration: JournalLoggingConfiguration(identifier: "settings-service")))
        }
    }

    /// A `JournalLogHandler` that records instead of writing.
    struct Recorder: LogHandler {
        let entries: JournalEntries
        var handler: JournalLogHandler

        var logLevel: Logger.Level {
            get { handler.logLevel }
            set { handler.logLevel = newValue }
        }

        var metadata: Logger.Metadata {
            get { handler.metadata }
            set { handler.metadata = newValue }
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { handler[metadataKey: key] }
            set { handler[metadataKey: key] = newValue }
        }

        func log(event: LogEvent) {
            let fields = handler.record(for: event).journalFields(prefix: "")
            let byName = Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
            entries.fields.withLock { $0.append(byName) }
        }
    }
}
